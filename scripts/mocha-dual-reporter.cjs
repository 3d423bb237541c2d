// Mocha reporter: the usual spec output on the console, plus the run's stats as JSON (for the summary line of
// scripts/test-all.sh). usage: --reporter ./scripts/mocha-dual-reporter.cjs --reporter-option json=FILE
'use strict';
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');

class DualReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = (options && options.reporterOptions && options.reporterOptions.json) || 'test-output/mocha.json';
    const failures = [];
    runner.on('fail', (test, err) => failures.push({ title: test.fullTitle(), error: String(err && err.message) }));
    runner.once('end', () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ stats: runner.stats, failures }, null, 1));
    });
  }
}
module.exports = DualReporter;
