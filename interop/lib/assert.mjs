// Assertions whose messages say what was compared.
import { isDeepStrictEqual } from 'node:util';

const show = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));

export class AssertionFailed extends Error {
	name = 'AssertionFailed';
}

/** actual === expected */
export function eq(actual, expected, what) {
	if (actual !== expected) throw new AssertionFailed(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** actual !== other */
export function ne(actual, other, what) {
	if (actual === other) throw new AssertionFailed(`${what}: expected something other than ${show(other)}`);
}

/** deep strict equality */
export function deepEq(actual, expected, what) {
	if (!isDeepStrictEqual(actual, expected)) {
		throw new AssertionFailed(`${what}: expected ${show(expected)}, got ${show(actual)}`);
	}
}

/** a truthy condition */
export function ok(cond, what) {
	if (!cond) throw new AssertionFailed(what);
}

/** the object has no such property (an omitted optional field) */
export function absent(obj, key, what) {
	if (obj && key in obj && obj[key] !== undefined) {
		throw new AssertionFailed(`${what}: expected "${key}" to be absent, got ${show(obj[key])}`);
	}
}

/** ids of a list's items */
export const ids = (items) => items.map((x) => x.id);

/** the list of items contains the id */
export function has(items, id, what) {
	if (!items.some((x) => x.id === id)) throw new AssertionFailed(`${what}: ${id} is missing from ${show(ids(items))}`);
}

/** the list of items lacks the id */
export function lacks(items, id, what) {
	if (items.some((x) => x.id === id)) throw new AssertionFailed(`${what}: ${id} should not be in ${show(ids(items))}`);
}
