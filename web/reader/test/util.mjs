// Reporting shared by the parts of the test.

export const results = { passed: 0, failed: 0 };

export function log(...args) {
  console.log('[reader-test]', ...args);
}

// check records one assertion; a failure is reported and the run goes on,
// so that one broken flow does not hide the others.
export function check(name, ok, detail = '') {
  if (ok) {
    results.passed++;
    log(`ok   ${name}`);
  } else {
    results.failed++;
    log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}
