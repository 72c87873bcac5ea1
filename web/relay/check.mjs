// Relay's compiler against the schema a running Quire publishes.
//
// 1. Reads the schema by introspection and prints it as SDL, as a Relay
//    project would (get-graphql-schema, graphql-js's printSchema).
// 2. Writes, from the introspection result, a @refetchable fragment on every
//    type that implements Node and a @connection on every connection field
//    (a field whose type has edges { node } and pageInfo, taking first and
//    after), so that types and connections added later are covered.
// 3. Runs relay-compiler (pinned in package.json) on them: it refuses a
//    schema whose directives clash with Relay's (as @inline did) and
//    connections or Node types that break Relay's conventions.
// 4. Runs every refetch query the compiler wrote against the server, with an
//    object of each Node type, and checks that node answers it.
//
// Everything it writes goes to a temporary directory. Environment:
// QUIRE_URL, QUIRE_TOKEN (an organization admin's), QUIRE_ORG_ID,
// QUIRE_USER_ID; RELAY_KEEP_TMP=1 keeps the directory.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildClientSchema, getIntrospectionQuery, printSchema } from "graphql";

const here = path.dirname(fileURLToPath(import.meta.url));
const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const url = env("QUIRE_URL");
const token = env("QUIRE_TOKEN");
const orgID = env("QUIRE_ORG_ID");
const userID = env("QUIRE_USER_ID");

let failures = 0;
const fail = (msg) => {
  failures++;
  console.error("FAIL " + msg);
};

async function graphql(query, variables = {}) {
  const res = await fetch(url + "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + token },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await res.json();
  return { status: res.status, ...body };
}

async function data(query, variables) {
  const r = await graphql(query, variables);
  if (r.status !== 200 || r.errors) throw new Error(`${query}\n-> ${r.status} ${JSON.stringify(r.errors ?? r)}`);
  return r.data;
}

// --- 1. The published schema.
const intro = await data(getIntrospectionQuery({ descriptions: true }));
const schemaSDL = printSchema(buildClientSchema(intro));
const types = new Map(intro.__schema.types.map((t) => [t.name, t]));

// --- 2. Fragments, a module (file) per type, as Relay names them.
const named = (ref) => (ref.ofType ? named(ref.ofType) : ref);
const nodeTypes = types.get("Node").possibleTypes.map((t) => t.name).sort();

function isConnection(field) {
  const t = types.get(named(field.type).name);
  if (t?.kind !== "OBJECT") return false;
  const edges = t.fields.find((f) => f.name === "edges");
  const pageInfo = t.fields.find((f) => f.name === "pageInfo");
  const edge = edges && types.get(named(edges.type).name);
  const args = new Set(field.args.map((a) => a.name));
  return Boolean(pageInfo && edge?.fields?.some((f) => f.name === "node") && args.has("first") && args.has("after"));
}

const modules = new Map(); // module name -> fragment texts
const add = (module, text) => modules.set(module, [...(modules.get(module) ?? []), text]);
for (const name of nodeTypes) {
  add(`Node${name}`, `fragment Node${name}_node on ${name} @refetchable(queryName: "Node${name}RefetchQuery") { id }`);
}
const connections = [];
for (const t of intro.__schema.types) {
  if (t.kind !== "OBJECT" || t.name.startsWith("__")) continue;
  for (const f of t.fields) {
    if (!isConnection(f)) continue;
    // Required arguments other than the pagination ones get a variable.
    const required = f.args.filter((a) => a.type.kind === "NON_NULL" && a.defaultValue == null && !["first", "after"].includes(a.name));
    const defs = required.map((a) => `${a.name}: {type: "${printType(a.type)}"}`);
    const args = ["first: 10", ...required.map((a) => `${a.name}: $${a.name}`)].join(", ");
    const module = `Connection${t.name}`;
    add(
      module,
      `fragment ${module}_${f.name} on ${t.name}${defs.length ? ` @argumentDefinitions(${defs.join(", ")})` : ""} {
  ${f.name}(${args}) @connection(key: "${module}_${f.name}") { edges { node { __typename } } }
}`,
    );
    connections.push(`${t.name}.${f.name}`);
  }
}
function printType(ref) {
  if (ref.kind === "NON_NULL") return printType(ref.ofType) + "!";
  if (ref.kind === "LIST") return "[" + printType(ref.ofType) + "]";
  return ref.name;
}
if (nodeTypes.length === 0) fail("introspection lists no Node type");
if (connections.length === 0) fail("introspection shows no connection field");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-relay-"));
// Removed however the check ends, unless asked to keep it.
process.on("exit", () => {
  if (process.env.RELAY_KEEP_TMP === "1") console.log("kept " + tmp);
  else fs.rmSync(tmp, { recursive: true, force: true });
});
const src = path.join(tmp, "src");
const generated = path.join(tmp, "__generated__");
fs.mkdirSync(src);
fs.mkdirSync(generated);
// The compiler writes ES modules.
fs.writeFileSync(path.join(tmp, "package.json"), JSON.stringify({ type: "module" }));
fs.writeFileSync(path.join(tmp, "schema.graphql"), schemaSDL);
for (const [module, fragments] of modules) {
  const body = fragments.map((f) => `graphql\`\n${f}\n\`;`).join("\n\n");
  fs.writeFileSync(path.join(src, module + ".js"), `import { graphql } from "relay-runtime";\n\n${body}\n`);
}
fs.writeFileSync(
  path.join(tmp, "relay.config.json"),
  JSON.stringify({ src: "./src", schema: "./schema.graphql", language: "javascript", artifactDirectory: "./__generated__" }, null, 2),
);
console.log(`relay: ${nodeTypes.length} Node types, ${connections.length} connection fields, in ${tmp}`);

// --- 3. Compile.
const compiler = path.join(here, "node_modules", "relay-compiler", "cli.js");
const run = spawnSync(process.execPath, [compiler, "--noWatchman"], { cwd: tmp, encoding: "utf8", timeout: 300_000 });
process.stdout.write(run.stdout ?? "");
process.stderr.write(run.stderr ?? "");
if (run.status !== 0) {
  fail(`relay-compiler exited with ${run.status ?? run.signal} on the published schema`);
}

// --- 4. Refetch an object of each Node type through the compiled queries.
if (run.status === 0) {
  const ids = await seed();
  for (const name of nodeTypes) {
    const id = ids[name];
    if (!id) {
      fail(`${name}: no object to refetch; create one in seed() (web/relay/check.mjs)`);
      continue;
    }
    const artifact = path.join(generated, `Node${name}RefetchQuery.graphql.js`);
    if (!fs.existsSync(artifact)) {
      fail(`${name}: relay-compiler wrote no ${path.basename(artifact)}`);
      continue;
    }
    const { params } = (await import(pathToFileURL(artifact).href)).default;
    const r = await graphql(params.text, { id });
    if (r.status !== 200 || r.errors || r.data?.node?.id !== id || r.data.node.__typename !== name) {
      fail(`${name}: ${params.name}(id: ${id}) answered ${r.status} ${JSON.stringify(r.errors ?? r.data)}`);
    } else {
      console.log(`ok ${params.name} ${id}`);
    }
  }
}

if (failures > 0) {
  console.error(`relay: ${failures} failure(s)`);
  process.exit(1);
}
console.log("relay: ok");

// seed creates an object of each Node type and returns their ids by type.
async function seed() {
  const col = (await data(`mutation($o: ID!) { createCollection(input: {organization: $o, title: "Relay"}) { id } }`, { o: orgID })).createCollection.id;
  const space = (
    await data(`mutation($o: ID!, $c: ID!) { createSpace(input: {organization: $o, title: "Relay", parent: $c}) { id revision } }`, { o: orgID, c: col })
  ).createSpace;
  const site = (await data(`mutation($o: ID!, $sp: ID!) { createSite(input: {organization: $o, title: "Relay site", spaces: [$sp]}) { id } }`, { o: orgID, sp: space.id }))
    .createSite.id;
  // A space is on a site once: the section gets a space of its own.
  const guides = (await data(`mutation($o: ID!) { createSpace(input: {organization: $o, title: "Relay guides"}) { id } }`, { o: orgID })).createSpace.id;
  const section = (
    await data(`mutation($s: ID!, $sp: ID!) { addSiteSection(site: $s, input: {space: $sp, title: "Guides"}) { id siteSpaces(first: 1) { nodes { id } } } }`, {
      s: site,
      sp: guides,
    })
  ).addSiteSection;
  const group = (await data(`mutation($s: ID!, $sec: ID!) { createSiteSectionGroup(site: $s, input: {title: "Group", sections: [$sec]}) { id } }`, { s: site, sec: section.id }))
    .createSiteSectionGroup.id;
  const link = (await data(`mutation($s: ID!) { createSiteShareLink(site: $s, name: "Relay") { id } }`, { s: site })).createSiteShareLink.id;
  const cr = (await data(`mutation($sp: ID!) { createChangeRequest(input: {space: $sp, subject: "Relay"}) { id } }`, { sp: space.id })).createChangeRequest.id;
  // A Git import answers its job at once; the job itself may fail later
  // (nothing serves the repository), which the refetch does not mind.
  const job = (
    await data(`mutation($sp: ID!) { importGitRepository(input: {space: $sp, url: "http://127.0.0.1:9/relay.git", ref: "refs/heads/main"}) { id } }`, {
      sp: space.id,
    })
  ).importGitRepository.id;
  const translation = (
    await data(`mutation($o: ID!, $sp: ID!) { createTranslation(input: {organization: $o, source: {space: $sp, language: en}, language: fr}) { id } }`, {
      o: orgID,
      sp: space.id,
    })
  ).createTranslation.id;
  const conversation = (
    await data(
      `mutation($o: ID!) { ingestConversation(organization: $o, conversations: [{id: "relay", parts: [{role: user, body: "The PDF export fails."}]}]) { conversations { id } } }`,
      { o: orgID },
    )
  ).ingestConversation.conversations[0].id;
  // The issue and its cluster come from the analysis, a background job.
  let issue;
  for (let i = 0; i < 100 && !issue; i++) {
    issue = (await data(`query($id: ID!) { conversation(id: $id) { issues { id cluster { id } } } }`, { id: conversation })).conversation.issues[0];
    if (!issue) await new Promise((r) => setTimeout(r, 200));
  }
  const comment = (
    await data(`mutation($sp: ID!) { postComment(input: {space: $sp, body: {markdown: "Relay"}}) { id } }`, { sp: space.id })
  ).postComment.id;
  const reply = (await data(`mutation($c: ID!) { postCommentReply(comment: $c, body: {markdown: "Reply"}) { id } }`, { c: comment })).postCommentReply.id;
  // The change request's author may request changes (not approve).
  const review = (
    await data(`mutation($cr: ID!) { submitChangeRequestReview(changeRequest: $cr, input: {status: changes_requested}) { id } }`, { cr })
  ).submitChangeRequestReview.id;
  const team = (await data(`mutation($o: ID!) { createTeam(organization: $o, input: {title: "Relay"}) { id } }`, { o: orgID })).createTeam.id;
  const invite = (await data(`mutation($o: ID!) { createInviteLink(organization: $o, input: {role: read}) { id } }`, { o: orgID })).createInviteLink.id;
  const saml = (await data(`mutation($o: ID!) { createSAMLProvider(organization: $o, input: {label: "Relay IdP"}) { id } }`, { o: orgID })).createSAMLProvider.id;
  // An OpenAPI specification given as text; the server's job runner
  // processes it into a version, with the job that did it.
  const specText = 'openapi: 3.1.0\ninfo: {title: Relay, version: "1"}\npaths: {}\n';
  const spec = (await data(`mutation($o: ID!, $t: String!) { createOpenAPISpec(input: {organization: $o, slug: "relay", source: {text: $t}}) { id } }`, { o: orgID, t: specText }))
    .createOpenAPISpec.id;
  let processed;
  for (let i = 0; i < 150 && !processed?.lastVersion; i++) {
    processed = (await data(`query($o: ID!) { openAPISpec(organization: $o, slug: "relay") { lastVersion { id } job { id } } }`, { o: orgID })).openAPISpec;
    if (!processed.lastVersion) await new Promise((r) => setTimeout(r, 200));
  }
  return {
    Organization: orgID,
    User: userID,
    Collection: col,
    Space: space.id,
    Revision: space.revision,
    Site: site,
    SiteSection: section.id,
    SiteSpace: section.siteSpaces.nodes[0]?.id,
    SiteSectionGroup: group,
    SiteShareLink: link,
    ChangeRequest: cr,
    Job: job,
    Translation: translation,
    Conversation: conversation,
    ConversationIssue: issue?.id,
    ConversationsIssuesCluster: issue?.cluster?.id,
    Comment: comment,
    CommentReply: reply,
    ChangeRequestReview: review,
    Team: team,
    InviteLink: invite,
    SAMLProvider: saml,
    OpenAPISpec: spec,
    OpenAPISpecVersion: processed?.lastVersion?.id,
  };
}
