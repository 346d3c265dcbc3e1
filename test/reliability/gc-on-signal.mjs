// Preloaded (with --expose-gc) into a server under test only: SIGUSR2 runs a full garbage
// collection, so the load test reads the live heap rather than whatever garbage V8 has yet to
// collect (which, on a machine with plenty of memory, can be a hundred megabytes).
process.on('SIGUSR2', () => globalThis.gc?.());
