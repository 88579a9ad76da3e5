// tau-prolog for Node, loaded by `require` (package.json "imports": `#tau-prolog` under the
// `node` condition; bundlers for browsers take the package itself). Node's ESM loader, given
// `import` of a CommonJS package, first scans its source for export names: tau-prolog's 340 KB
// core took 70-90 ms of processor time at the start of every process (every batch game, every
// command, issue 33). Through this file it scans these lines only; the module is assigned
// through a variable so that the scan does not follow it as a re-export.
'use strict';
const tau = require('tau-prolog');
module.exports = tau;
