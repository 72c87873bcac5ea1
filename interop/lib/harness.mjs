// A tiny step runner: areas register named steps; steps run in order and
// print one line each ("ok - name", "not ok - name: reason", or
// "skip - name: reason"; details of a failure, such as the request and
// Quire's answer, follow on lines starting with "#"); the run ends with
// "N passed, M failed" (plus ", K skipped" when some were skipped).

/** Thrown by need(): the step depends on something an earlier step failed to make. */
export class Skip extends Error {}

/** Returns value, or skips the step when an earlier step did not produce it. */
export function need(value, what) {
	if (value === undefined || value === null) throw new Skip(`needs ${what} from an earlier step`);
	return value;
}

export class Runner {
	constructor({ stepTimeoutMs = 30_000, out = process.stdout } = {}) {
		this.steps = [];
		this.stepTimeoutMs = stepTimeoutMs;
		this.out = out;
		this.notes = new Set();
	}

	/** Registers the steps of an area: register(t) calls t.step(name, fn) for each. */
	area(name, register) {
		const t = {
			step: (title, fn) => this.steps.push({ name: `${name}: ${title}`, fn }),
		};
		register(t);
	}

	/** Adds a line to the notes printed (as "# note: ...") before the summary. */
	note(text) {
		this.notes.add(text);
	}

	async run(ctx) {
		let passed = 0;
		let failed = 0;
		let skipped = 0;
		for (const { name, fn } of this.steps) {
			let timer;
			try {
				await Promise.race([
					fn(ctx),
					new Promise((_, reject) => {
						timer = setTimeout(() => reject(new Error(`timed out after ${this.stepTimeoutMs} ms`)), this.stepTimeoutMs);
					}),
				]);
				passed++;
				this.print(`ok - ${name}`);
			} catch (err) {
				if (err instanceof Skip) {
					skipped++;
					this.print(`skip - ${name}: ${err.message}`);
				} else {
					failed++;
					const [first, ...details] = reason(err).split('\n');
					this.print(`not ok - ${name}: ${first}`);
					for (const d of details) this.print(`#   ${d.trim()}`);
				}
			} finally {
				clearTimeout(timer);
			}
		}
		for (const n of [...this.notes].sort()) this.print(`# note: ${n}`);
		this.print(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
		return { passed, failed, skipped };
	}

	print(line) {
		this.out.write(`${line}\n`);
	}
}

function reason(err) {
	if (!(err instanceof Error)) return String(err);
	let text = err.message || err.name;
	if (err.name === 'AssertionError' && err.generatedMessage === false) text = err.message;
	return text.replace(/\n+/g, '\n');
}
