// graphql posts a query to Quire's GraphQL endpoint as the admin
// (QUIRE_TOKEN): the documented REST API has no operation that writes a
// page, so the areas seed content through it.
const TOKEN = process.env.QUIRE_TOKEN;

export async function graphql(url, query, variables) {
	const res = await fetch(`${url}/graphql`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
		body: JSON.stringify({ query, variables }),
		signal: AbortSignal.timeout(15_000),
	});
	const body = await res.json();
	if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
	return body.data;
}
