// The reference OpenAPI document, as shipped inside the pinned client package
// (@gitbook/api/spec/openapi.json, byte-identical to
// shared/reference/gitbook-api-0.146.0.openapi.json), and a small validator
// for the subset of OpenAPI 3.0 schema keywords that document uses.
//
// Validation rules (OpenAPI 3.0 semantics):
// - `nullable: true` (or an enum that lists null) admits null;
// - `oneOf` is checked as "at least one branch matches" (several branches of
//   the reference overlap, e.g. DefaultLevel), `anyOf` likewise, `allOf` as all;
// - `required`, `properties`, `additionalProperties`, `items`, `enum`, `type`,
//   min/max length, items, properties, minimum/maximum, pattern, and the
//   formats date-time, uri and int32 are enforced;
// - properties a response has but the schema does not declare are not errors
//   (the document allows them); `undeclared()` lists them for the report.
//
// The document is used as shipped, except for the fields the product's seeds
// add to it on purpose, declared in one place: lib/seed-additions.mjs.
import { createRequire } from 'node:module';
import { declareSeedAdditions } from './seed-additions.mjs';

const require = createRequire(import.meta.url);
export const spec = declareSeedAdditions(structuredClone(require('@gitbook/api/spec/openapi.json')));

/** Resolves a local "#/components/..." reference. */
export function deref(schema) {
	let s = schema;
	const seen = new Set();
	while (s && typeof s === 'object' && typeof s.$ref === 'string') {
		if (seen.has(s.$ref)) throw new Error(`reference cycle at ${s.$ref}`);
		seen.add(s.$ref);
		if (!s.$ref.startsWith('#/')) throw new Error(`unsupported reference ${s.$ref}`);
		let v = spec;
		for (const part of s.$ref.slice(2).split('/')) {
			v = v?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
		}
		if (v === undefined) throw new Error(`unresolved reference ${s.$ref}`);
		s = v;
	}
	return s;
}

const operations = new Map();
for (const [path, item] of Object.entries(spec.paths)) {
	for (const [method, op] of Object.entries(item)) {
		if (op && typeof op === 'object' && op.operationId) {
			operations.set(op.operationId, { method: method.toUpperCase(), path, op });
		}
	}
}

/** Returns {method, path, op} of a documented operation, or throws. */
export function operation(operationId) {
	const o = operations.get(operationId);
	if (!o) throw new Error(`operation ${operationId} is not in the reference document`);
	return o;
}

/** A RegExp matching the concrete path (below /v1) of an operation. */
export function pathPattern(path) {
	const re = path
		.split(/(\{[^}]+\})/)
		.map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
		.join('');
	return new RegExp(`^${re}$`);
}

/** The documented response object (dereferenced) of an operation for a status, or undefined. */
export function documentedResponse(operationId, status) {
	const r = operation(operationId).op.responses?.[String(status)];
	return r ? deref(r) : undefined;
}

/** The documented JSON schema of a response, or undefined when it has no body. */
export function responseSchema(response) {
	return response?.content?.['application/json']?.schema;
}

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const show = (v) => {
	const s = JSON.stringify(v);
	return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkFormat(format, v) {
	switch (format) {
		case 'date-time':
			return RFC3339.test(v) && !Number.isNaN(Date.parse(v)) ? null : 'is not an RFC 3339 date-time';
		case 'uri':
			try {
				new URL(v);
				return null;
			} catch {
				return 'is not an absolute URI';
			}
		case 'int32':
			return Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? null : 'is not an int32';
		default:
			return null; // emoji and other informational formats
	}
}

/**
 * Validates a value against a schema; returns a list of problems (empty when
 * the value conforms). Paths look like `$.items[0].urls.location`.
 */
export function validate(schema, value, path = '$') {
	const s = deref(schema);
	if (!s || typeof s !== 'object') return [];
	const errors = [];
	const composed = s.allOf || s.oneOf || s.anyOf;

	if (value === null) {
		if (s.nullable === true || (Array.isArray(s.enum) && s.enum.includes(null))) return [];
		if (s.type) return [`${path}: is null, expected ${s.type}`];
		if (!composed) return [];
	}

	if (s.allOf) for (const sub of s.allOf) errors.push(...validate(sub, value, path));
	for (const key of ['oneOf', 'anyOf']) {
		if (!s[key]) continue;
		const results = s[key].map((sub) => validate(sub, value, path));
		if (!results.some((r) => r.length === 0)) {
			const best = results.reduce((a, b) => (b.length < a.length ? b : a));
			errors.push(`${path}: matches none of the ${s[key].length} ${key} branches (closest: ${best.slice(0, 3).join('; ')})`);
		}
	}

	if (Array.isArray(s.enum) && !s.enum.some((e) => e === value)) {
		errors.push(`${path}: ${show(value)} is not one of ${show(s.enum)}`);
		return errors;
	}

	if (s.type) {
		const t = typeOf(value);
		const ok =
			s.type === t ||
			(s.type === 'integer' && t === 'number' && Number.isInteger(value)) ||
			(s.type === 'number' && t === 'number');
		if (!ok) {
			errors.push(`${path}: expected ${s.type}, got ${t} ${show(value)}`);
			return errors;
		}
	}

	const t = typeOf(value);
	if (t === 'string') {
		const len = [...value].length;
		if (s.minLength !== undefined && len < s.minLength) errors.push(`${path}: length ${len} < minLength ${s.minLength}`);
		if (s.maxLength !== undefined && len > s.maxLength) errors.push(`${path}: length ${len} > maxLength ${s.maxLength}`);
		if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) errors.push(`${path}: ${show(value)} does not match ${s.pattern}`);
		if (s.format) {
			const problem = checkFormat(s.format, value);
			if (problem) errors.push(`${path}: ${show(value)} ${problem}`);
		}
	}
	if (t === 'number') {
		if (s.minimum !== undefined && value < s.minimum) errors.push(`${path}: ${value} < minimum ${s.minimum}`);
		if (s.maximum !== undefined && value > s.maximum) errors.push(`${path}: ${value} > maximum ${s.maximum}`);
		if (s.format === 'int32') {
			const problem = checkFormat('int32', value);
			if (problem) errors.push(`${path}: ${value} ${problem}`);
		}
	}
	if (t === 'array') {
		if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${path}: ${value.length} items < minItems ${s.minItems}`);
		if (s.maxItems !== undefined && value.length > s.maxItems) errors.push(`${path}: ${value.length} items > maxItems ${s.maxItems}`);
		if (s.items) value.forEach((v, i) => errors.push(...validate(s.items, v, `${path}[${i}]`)));
	}
	if (t === 'object') {
		const keys = Object.keys(value);
		for (const k of s.required || []) {
			if (!(k in value)) errors.push(`${path}: missing required property "${k}"`);
		}
		if (s.minProperties !== undefined && keys.length < s.minProperties) {
			errors.push(`${path}: ${keys.length} properties < minProperties ${s.minProperties}`);
		}
		const props = s.properties || {};
		for (const k of keys) {
			if (k in props) {
				errors.push(...validate(props[k], value[k], `${path}.${k}`));
			} else if (s.additionalProperties === false) {
				errors.push(`${path}: property "${k}" is not allowed`);
			} else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
				errors.push(...validate(s.additionalProperties, value[k], `${path}.${k}`));
			}
		}
	}
	return errors;
}

// Property schemas declared for an object across allOf/oneOf/anyOf.
function declaredProps(schema, out = { props: new Map(), open: false, any: false }) {
	const s = deref(schema);
	if (!s || typeof s !== 'object') return out;
	if (s.properties) {
		out.any = true;
		for (const [k, v] of Object.entries(s.properties)) {
			if (!out.props.has(k)) out.props.set(k, []);
			out.props.get(k).push(v);
		}
	}
	if (s.additionalProperties !== undefined && s.additionalProperties !== false) out.open = true;
	for (const key of ['allOf', 'oneOf', 'anyOf']) for (const sub of s[key] || []) declaredProps(sub, out);
	return out;
}

function itemSchemas(schema, out = []) {
	const s = deref(schema);
	if (!s || typeof s !== 'object') return out;
	if (s.items) out.push(s.items);
	for (const key of ['allOf', 'oneOf', 'anyOf']) for (const sub of s[key] || []) itemSchemas(sub, out);
	return out;
}

/**
 * Lists the paths of properties present in value that no schema applying to
 * them declares (allowed by the document, but worth reporting: a misspelt
 * optional field would show up here). Array indexes are shown as [].
 */
export function undeclared(schemas, value, path = '$', out = new Set()) {
	const list = Array.isArray(schemas) ? schemas : [schemas];
	if (Array.isArray(value)) {
		const items = list.flatMap((s) => itemSchemas(s));
		if (items.length) for (const v of value) undeclared(items, v, `${path}[]`, out);
		return out;
	}
	if (!value || typeof value !== 'object') return out;
	const decl = { props: new Map(), open: false, any: false };
	for (const s of list) declaredProps(s, decl);
	if (!decl.any) return out;
	for (const [k, v] of Object.entries(value)) {
		const subs = decl.props.get(k);
		if (subs) undeclared(subs, v, `${path}.${k}`, out);
		else if (!decl.open) out.add(`${path}.${k}`);
	}
	return out;
}
