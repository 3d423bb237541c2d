// The checks on a Ruby project, with the real RSpec (scripts/install-rspec.sh puts it on the test machines): rspec is
// detected from `.rspec` (no Gemfile: the rspec on PATH), a failure already in the project gets no fix round, and
// TSR and fail-first read RSpec's cases — its documentation format names passing examples too.
import * as assert from 'assert';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useToolchain } from '../helpers/fakeSuite';
import { assertFailedAsBefore, checksWorkspace, runWithChecks } from '../helpers/toolchainSession';

describe('CLI: checks on a Ruby project (rspec)', function () {
  this.timeout(120000);
  let fake: FakeAnthropic;
  useToolchain('rspec', ['--version'], 'scripts/install-rspec.sh', { chunkSize: 256 }, (f) => (fake = f));

  it('detected from .rspec; a failure already there gets no fix round; TSR and fail-first read rspec\'s output', async () => {
    const ws = checksWorkspace(
      fake,
      'task-rb',
      {
        '.rspec': '--format documentation\n',
        'lib/calc.rb': 'module Calc\n  def self.add(a, b) = a + b\n  def self.mul(a, b) = a + b\n  def self.div(a, b) = a * b\nend\n',
        // the project's own suite: "divides" fails before DevA touches anything
        'spec/calc_spec.rb': "require_relative '../lib/calc'\n\nRSpec.describe Calc do\n  it 'adds' do\n    expect(Calc.add(2, 3)).to eq(5)\n  end\n\n  it 'divides' do\n    expect(Calc.div(6, 3)).to eq(2)\n  end\nend\n",
      },
      '<edit path="lib/calc.rb">\n<<<<<<< SEARCH\n  def self.mul(a, b) = a + b\n=======\n  def self.mul(a, b) = a * b\n  def self.sq(a) = a * a\n>>>>>>> REPLACE\n</edit>\n\n' +
        "<file path=\"spec/mul_spec.rb\">\nrequire_relative '../lib/calc'\n\nRSpec.describe 'Calc.mul' do\n  it 'multiplies small numbers' do\n    expect(Calc.mul(2, 3)).to eq(6)\n  end\n\n  it 'squares' do\n    expect(Calc.sq(3)).to eq(9)\n  end\n\n  it 'multiplies two by two' do\n    expect(Calc.mul(2, 2)).to eq(4)\n  end\nend\n</file>",
      [
        { criterion: 'AC-1', file: 'spec/mul_spec.rb', test: 'multiplies small numbers', expect: 'fail' },
        { criterion: 'AC-2', file: 'spec/calc_spec.rb', test: 'adds', expect: 'pass' },
        { criterion: 'AC-3', file: 'spec/mul_spec.rb', test: 'multiplies two by two', expect: 'pass' },
      ],
    );
    const run = await runWithChecks(fake, ws, 'task-rb', 'Fix mul', 'auto', 100000);
    assertFailedAsBefore(run, fake, '"divides" fails on the unchanged code too', [
      // "multiplies small numbers" passes with the change and fails without it; RSpec names failing examples in its
      // summary, so "adds" (in the file whose "divides" fails) passed; 2 + 2 = 2 × 2 passes either way
      ['AC-1', 'pass', 'fail'],
      ['AC-2', 'pass', 'pass'],
      ['AC-3', 'pass', 'pass'],
    ]);
    assert.deepStrictEqual(run.json.checks.map((c: any) => [c.command, c.passed]), [['rspec', false]]);
    assert.deepStrictEqual(run.json.failFirst.testFiles, ['spec/mul_spec.rb']);
    assert.match(JSON.stringify(fake.requests[4].body.messages), /Calc divides/);
  });
});
