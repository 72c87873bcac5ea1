// Seeds a running quire server through its public API, as an editor would:
// spaces and pages through GraphQL change requests (Markdown content),
// sites, sections, site spaces, publishing and share links through REST.

const fence = '```';

// The Guides space: groups, nested pages and every kind of block a reader
// meets (code, hint, table, tabs, expandable), plus a long page whose
// headings fill the outline.
function longPage() {
  const parts = ['This reference runs long on purpose: its headings fill the outline beside it.'];
  for (let i = 1; i <= 12; i++) {
    parts.push(`# Topic ${i}`, `Paragraph about topic ${i}. The reader scrolls past it to reach the next heading.`);
    parts.push(`## Detail ${i}.1`, `A detail of topic ${i}, with \`inline code\` and **strong words**.`);
    if (i % 3 === 0) parts.push(`${fence}sh\nquire topic --number ${i}\n${fence}`);
  }
  return parts.join('\n\n');
}

const GUIDES = [
  {
    title: 'Welcome',
    markdown: [
      'Quire keeps **documentation** in spaces and publishes it as *sites* for readers.',
      '# What you find here',
      '- How to install the server\n- How to write pages\n- How to publish them',
      '> A quote: good documentation answers the question the reader has now.',
      '1. Read **Installation**.\n2. Write a page.\n3. Publish the site.',
      'Use `quire serve` to start, and read more on [the project site](https://example.com/).',
      '---',
      'The last paragraph of the welcome page, with ~~struck~~ and *emphasized* words.',
    ].join('\n\n'),
  },
  {
    group: 'Getting started',
    pages: [
      {
        title: 'Installation',
        markdown: [
          'Install the single binary and start it.',
          '# Build from source',
          `${fence}sh\ngo build -o quire ./cmd/quire\n./quire serve --addr 127.0.0.1:8080\n${fence}`,
          '# Configure with a file',
          `${fence}json\n{\n  "addr": "127.0.0.1:8080",\n  "databaseUrl": "sqlite:data/quire.db"\n}\n${fence}`,
          '{% hint style="info" %}\nThe embedded SQLite database needs no server.\n{% endhint %}',
        ].join('\n\n'),
        children: [
          { title: 'On Linux', markdown: `Install on Linux.\n\n${fence}sh\nsudo install quire /usr/local/bin/\n${fence}` },
        ],
      },
      {
        title: 'Configuration',
        markdown: [
          'Every flag has an environment variable.',
          '| Flag | Variable | Default |\n| --- | --- | --- |\n| `--addr` | `QUIRE_ADDR` | `localhost:8080` |\n| `--database-url` | `QUIRE_DATABASE_URL` | `sqlite:data/quire.db` |\n| `--public-url` | `QUIRE_PUBLIC_URL` | the listen address |',
          '{% hint style="warning" %}\nSet the public URL when a proxy stands in front of the server.\n{% endhint %}',
        ].join('\n\n'),
        children: [
          {
            title: 'Advanced options',
            markdown: '<details><summary>Rate limits</summary>\n\nEach user spends points per window; anonymous readers are limited per address.\n\n</details>\n\n<details><summary>Timeouts</summary>\n\nA request past its deadline is answered 504.\n\n</details>',
          },
        ],
      },
    ],
  },
  {
    group: 'Writing',
    pages: [
      {
        title: 'Writing pages',
        markdown: [
          'Pages take Markdown, with blocks for richer content.',
          '{% tabs %}\n{% tab title="Markdown" %}\nWrite **Markdown** in a change request.\n{% endtab %}\n{% tab title="GraphQL" %}\nCall `createPage` with a `markdown` field.\n{% endtab %}\n{% endtabs %}',
          '{% hint style="success" %}\nMerged change requests appear on the published site at once.\n{% endhint %}',
        ].join('\n\n'),
      },
      { title: 'Long reference', markdown: longPage() },
      {
        title: 'Publishing',
        markdown: 'A site publishes one or more spaces. Sections group them; variants are versions of one section.\n\n{% hint style="danger" %}\nUnpublishing a site makes its pages answer 404.\n{% endhint %}',
        children: [{ title: 'Share links', markdown: 'A share link lets readers without an account read a site that is not public.' }],
      },
      { title: 'Searching', markdown: 'The header search box suggests pages as you type; Enter opens the search page with every result.' },
    ],
  },
  {
    group: 'Reference',
    pages: [
      { title: 'Command line', markdown: `The commands of the binary.\n\n${fence}text\nquire serve\nquire migrate\nquire admin bootstrap\n${fence}` },
      {
        title: 'FAQ',
        markdown: '<details><summary>Does Quire need PostgreSQL?</summary>\n\nNo: SQLite is the default.\n\n</details>\n\n<details><summary>Can readers search?</summary>\n\nYes, every published site has search.\n\n</details>',
      },
      { title: 'Glossary', markdown: '| Term | Meaning |\n| --- | --- |\n| Space | A tree of pages |\n| Site | Spaces published for readers |\n| Variant | One of several spaces in a section |' },
    ],
  },
];

export async function seed(base, token, orgId) {
  const api = async (method, path, body, want) => {
    const res = await fetch(`${base}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    if (want && res.status !== want) throw new Error(`${method} ${path}: ${res.status}, want ${want}: ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const gql = async (query, variables) => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const out = await res.json();
    if (out.errors) throw new Error(`GraphQL: ${JSON.stringify(out.errors)}`);
    return out.data;
  };

  const space = async (title) => (await api('POST', `/orgs/${orgId}/spaces`, { title }, 201)).id;

  // Writes a tree of pages into a space in one change request, then merges it.
  const write = async (spaceId, tree) => {
    const cr = (await gql('mutation($in: CreateChangeRequestInput!){ createChangeRequest(input: $in) { id } }', { in: { space: spaceId, subject: 'Seed' } })).createChangeRequest.id;
    const create = async (input) =>
      (await gql('mutation($in: CreatePageInput!){ createPage(input: $in) { page { id } } }', { in: { changeRequest: cr, ...input } })).createPage.page.id;
    const pages = async (list, parent) => {
      for (const p of list) {
        if (p.group) {
          const id = await create({ type: 'group', title: p.group, parent });
          await pages(p.pages, id);
        } else {
          const id = await create({ title: p.title, markdown: p.markdown, parent });
          if (p.children) await pages(p.children, id);
        }
      }
    };
    await pages(tree);
    const merged = (await gql('mutation($id: ID!){ mergeChangeRequest(id: $id) { result conflicts { __typename } } }', { id: cr })).mergeChangeRequest;
    if (merged.result !== 'merge') throw new Error(`merge: ${JSON.stringify(merged)}`);
  };

  const guides = await space('Guides');
  await write(guides, GUIDES);
  const v2 = await space('API v2');
  await write(v2, [
    { title: 'API overview', markdown: 'Version 2 of the API: **current**.\n\n# Endpoints\n\nEvery endpoint answers JSON.' },
    { title: 'Authentication', markdown: `Send a bearer token.\n\n${fence}sh\ncurl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/user\n${fence}` },
  ]);
  const v1 = await space('API v1');
  await write(v1, [
    { title: 'API overview', markdown: 'Version 1 of the API: **deprecated**.' },
    { title: 'Authentication', markdown: 'Version 1 took a token as a query parameter.' },
  ]);

  // The public site: a Guides section and an API section with two variants.
  const st = await api('POST', `/orgs/${orgId}/sites`, { title: 'Acme docs', visibility: 'public' }, 201);
  const path = `/orgs/${orgId}/sites/${st.id}`;
  await api('POST', `${path}/sections`, { spaceId: guides, title: 'Guides' }, 201);
  const apiSection = await api('POST', `${path}/sections`, { spaceId: v2, title: 'API' }, 201);
  await api('POST', `${path}/site-spaces`, { spaceId: v1, sectionId: apiSection.id }, 201);
  await api('POST', `${path}/publish`, null, 200);
  const site = (await api('GET', path, null, 200)).urls.published;

  // A site readable only through a share link.
  const secret = await space('Internal notes');
  await write(secret, [{ title: 'Internal notes', markdown: 'Notes for the reviewers who hold the link.' }]);
  const sh = await api('POST', `/orgs/${orgId}/sites`, { title: 'Internal', visibility: 'share-link' }, 201);
  const shPath = `/orgs/${orgId}/sites/${sh.id}`;
  await api('POST', `${shPath}/site-spaces`, { spaceId: secret }, 201);
  await api('POST', `${shPath}/publish`, null, 200);
  const link = await api('POST', `${shPath}/share-links`, { name: 'Reviewers' }, 201);
  const shareURL = link.urls.published;
  // A share-link site has no public URL: it is the share URL without its key.
  const shareSite = shareURL.slice(0, shareURL.indexOf('/~share/'));

  return { site, shareSite, shareURL };
}
