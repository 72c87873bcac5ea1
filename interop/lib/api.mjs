// Clients of the official package pointed at Quire, and the two checks every
// area uses:
//   call(operationId, fn, {status})  - the call succeeds with a status the
//       reference documents for that operation, its body matches the
//       documented schema (or is empty when none is documented), and
//       documented headers (Location) are present;
//   fails(operationId, fn, status)   - the call rejects with the client's
//       GitBookAPIError carrying that status, and the body is the documented
//       error shape {error: {code, message}} with the same code and message.
// Every exchange is recorded (through the client's documented serviceBinding
// option) so that failures can show the request and Quire's answer.
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { documentedResponse, operation, pathPattern, responseSchema, undeclared, validate } from './openapi.mjs';

const REQUEST_TIMEOUT_MS = 15_000;

const clip = (s, n) => (s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s);

/** Describes a recorded exchange for a failure report. */
export function describeExchange(ex) {
	if (!ex) return '';
	const req = `${ex.method} ${ex.url}${ex.requestBody ? ` ${clip(ex.requestBody, 300)}` : ''}`;
	const res = ex.status === undefined ? 'none' : `${ex.status} ${clip(ex.body ?? '', 600) || '(empty body)'}`;
	return `\n  request: ${req}\n  response: ${res}`;
}

function describeError(err) {
	if (err instanceof GitBookAPIError) return `GitBookAPIError ${err.code}: ${err.errorMessage}`;
	return err instanceof Error ? `${err.name}: ${err.message}${err.cause ? ` (${err.cause.message ?? err.cause})` : ''}` : String(err);
}

export class Api {
	/**
	 * @param {object} o
	 * @param {string} o.url     Quire's base URL (without /v1: the client appends it)
	 * @param {(text: string) => void} o.note  records a non-fatal observation
	 */
	constructor({ url, note }) {
		this.url = url.replace(/\/+$/, '');
		this.note = note;
		this.exchanges = [];
	}

	/** A client of the official package, authenticated with token (none when undefined). */
	client(token) {
		const exchanges = this.exchanges;
		return new GitBookAPI({
			endpoint: this.url,
			authToken: token,
			serviceBinding: {
				fetch: async (input, init = {}) => {
					const ex = {
						method: init.method || 'GET',
						url: String(input),
						requestBody: typeof init.body === 'string' ? init.body : init.body == null ? '' : '[binary]',
					};
					exchanges.push(ex);
					const res = await fetch(input, { ...init, signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
					ex.status = res.status;
					ex.headers = res.headers;
					ex.body = await res.clone().text();
					return res;
				},
			},
		});
	}

	last() {
		return this.exchanges.at(-1);
	}

	// The recorded exchange of the call that started when exchanges had `start` entries.
	exchangeSince(start, operationId) {
		const made = this.exchanges.slice(start);
		if (made.length !== 1) {
			throw new Error(`${operationId}: expected the client to send one request, it sent ${made.length}`);
		}
		const ex = made[0];
		const { method, path } = operation(operationId);
		const u = new URL(ex.url);
		const re = pathPattern(`/v1${path}`);
		if (ex.method !== method || !re.test(u.pathname)) {
			throw new Error(`${operationId}: the client sent ${ex.method} ${u.pathname}, the reference says ${method} /v1${path}`);
		}
		return ex;
	}

	async call(operationId, fn, { status } = {}) {
		const { op } = operation(operationId);
		const start = this.exchanges.length;
		let res;
		try {
			res = await fn();
		} catch (err) {
			throw new Error(`${operationId} failed: ${describeError(err)}${describeExchange(this.exchanges[start])}`);
		}
		const ex = this.exchangeSince(start, operationId);
		const code = res.status;
		const documented = /^2/.test(String(code)) ? documentedResponse(operationId, code) : undefined;
		if (!documented) {
			const codes = Object.keys(op.responses).filter((c) => /^2/.test(c));
			throw new Error(`${operationId} answered ${code}; the reference documents ${codes.join(' or ')}${describeExchange(ex)}`);
		}
		if (status !== undefined && code !== status) {
			throw new Error(`${operationId} answered ${code}, expected ${status}${describeExchange(ex)}`);
		}
		const schema = responseSchema(documented);
		if (schema) {
			const ct = ex.headers.get('content-type') || '';
			if (!/^application\/json\b/i.test(ct)) {
				throw new Error(`${operationId} ${code}: Content-Type is ${JSON.stringify(ct)}, the reference documents application/json`);
			}
			const errors = validate(schema, res.data);
			if (errors.length) {
				throw new Error(
					`${operationId} ${code}: the body does not match the reference schema:\n  ${errors.slice(0, 8).join('\n  ')}${describeExchange(ex)}`,
				);
			}
			for (const p of undeclared(schema, res.data)) {
				this.note(`${operationId} ${code}: ${p} is not declared by the reference schema`);
			}
		} else if (ex.body !== '') {
			throw new Error(`${operationId} ${code} is documented without a body, but Quire sent one${describeExchange(ex)}`);
		}
		for (const h of Object.keys(documented.headers || {})) {
			if (!res.headers.get(h)) throw new Error(`${operationId} ${code}: the documented ${h} header is missing${describeExchange(ex)}`);
		}
		return { status: code, data: schema ? res.data : null, headers: res.headers };
	}

	async fails(operationId, fn, status) {
		operation(operationId);
		const start = this.exchanges.length;
		let res;
		try {
			res = await fn();
		} catch (err) {
			const ex = this.exchanges[start];
			if (!(err instanceof GitBookAPIError)) {
				throw new Error(`${operationId}: expected the client's GitBookAPIError with code ${status}, got ${describeError(err)}${describeExchange(ex)}`);
			}
			this.exchangeSince(start, operationId);
			if (err.code !== status) {
				throw new Error(`${operationId} answered ${err.code}, expected ${status}${describeExchange(ex)}`);
			}
			let body;
			try {
				body = JSON.parse(ex.body);
			} catch {
				throw new Error(`${operationId} ${status}: the error body is not JSON${describeExchange(ex)}`);
			}
			const documented = documentedResponse(operationId, status);
			const schemas = [{ $ref: '#/components/schemas/Error' }];
			if (responseSchema(documented)) schemas.push(responseSchema(documented));
			for (const schema of schemas) {
				const errors = validate(schema, body);
				if (errors.length) {
					throw new Error(`${operationId} ${status}: the error body does not match the reference:\n  ${errors.join('\n  ')}${describeExchange(ex)}`);
				}
			}
			if (body.error.code !== status) {
				throw new Error(`${operationId} ${status}: error.code is ${body.error.code}${describeExchange(ex)}`);
			}
			if (!body.error.message) throw new Error(`${operationId} ${status}: error.message is empty${describeExchange(ex)}`);
			if (err.errorMessage !== body.error.message || !err.message.includes(body.error.message)) {
				throw new Error(`${operationId} ${status}: the client's error message ${JSON.stringify(err.errorMessage)} is not the body's ${JSON.stringify(body.error.message)}`);
			}
			const ct = ex.headers.get('content-type') || '';
			if (!/^application\/json\b/i.test(ct)) {
				throw new Error(`${operationId} ${status}: Content-Type is ${JSON.stringify(ct)}, expected application/json`);
			}
			if (!documented) this.note(`${operationId}: the reference lists no ${status} response (spec silent); Quire answers the documented error shape`);
			return { error: err, body };
		}
		throw new Error(`${operationId} succeeded with ${res?.status}, expected an error ${status}${describeExchange(this.last())}`);
	}
}
