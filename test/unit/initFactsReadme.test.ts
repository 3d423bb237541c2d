// Init's workspace facts, the README's opening (src/core/cape/initFactsReadme.ts): the title and the first prose
// paragraphs, without the lines that are only badges or images — markdown's (`[![..](..)](..)`, by reference too),
// HTML's (`[<img …>](…)`, a bare `<img …>`, `<a …><img …></a>`) and the `<p align=…>` wrappers around them — on
// READMEs as projects write them; a line with text keeps it, its badges left out.
import * as assert from 'assert';
import { readmeOpening } from '../../src/core/cape/initFactsReadme';

/** dtolnay/semver's README, its opening: a setext title, a line of four `[<img …>](…)` badges, then the prose. */
const SEMVER = `semver
======

[<img alt="github" src="https://img.shields.io/badge/github-dtolnay/semver-8da0cb?style=for-the-badge&labelColor=555555&logo=github" height="20">](https://github.com/dtolnay/semver)
[<img alt="crates.io" src="https://img.shields.io/crates/v/semver.svg?style=for-the-badge&color=fc8d62&logo=rust" height="20">](https://crates.io/crates/semver)
[<img alt="docs.rs" src="https://img.shields.io/badge/docs.rs-semver-66c2a5?style=for-the-badge&labelColor=555555&logo=docs.rs" height="20">](https://docs.rs/semver)
[<img alt="build status" src="https://img.shields.io/github/actions/workflow/status/dtolnay/semver/ci.yml?branch=master&style=for-the-badge" height="20">](https://github.com/dtolnay/semver/actions?query=branch%3Amaster)

A parser and evaluator for Cargo's flavor of Semantic Versioning.

Semantic Versioning (see <https://semver.org>) is a guideline for how version
numbers are assigned and incremented. It is widely followed within the
Cargo/crates.io ecosystem for Rust.

\`\`\`toml
[dependencies]
semver = "1.0"
\`\`\`
`;

/** A README opening in centred HTML, as FastAPI's: a linked logo, a tagline, a paragraph of badges over several lines. */
const CENTRED = `<p align="center">
  <a href="https://fastapi.tiangolo.com"><img src="https://fastapi.tiangolo.com/img/logo-margin/logo-teal.png" alt="FastAPI"></a>
</p>
<p align="center">
    <em>FastAPI framework, high performance, easy to learn, fast to code, ready for production</em>
</p>
<p align="center">
<a href="https://github.com/fastapi/fastapi/actions?query=workflow%3ATest" target="_blank">
    <img src="https://github.com/fastapi/fastapi/actions/workflows/test.yml/badge.svg?event=push&branch=master" alt="Test">
</a>
<a href="https://pypi.org/project/fastapi" target="_blank">
    <img src="https://img.shields.io/pypi/v/fastapi?color=%2334D058&label=pypi%20package" alt="Package version">
</a>
</p>

---

FastAPI is a modern, fast (high-performance), web framework for building APIs with Python.
`;

describe("init: the README's opening, without its badges", () => {
  it('keeps the title and the first paragraphs, not the badges and HTML around them', () => {
    const readme = '<p align="center"><img src="logo.png"></p>\n\n[![npm](b.svg)](n)\n\n# Anvil\n\nFirst.\n\nSecond.\n\nThird.\n\nFourth.\n';
    assert.strictEqual(readmeOpening(readme, 900), '# Anvil\n\nFirst.\n\nSecond.\n\nThird.');
    assert.strictEqual(readmeOpening('# A\n\n' + 'long '.repeat(100) + '\n\nnext\n', 50), '# A\n\n' + 'long '.repeat(100).trim());
    // badges by reference, one of them wrapped onto a second line (tinyhttp's README): the whole block goes
    const wrapped = '[![][site-badge]][site-url] [![npm][npm-img]][npm-url]\n[![GitHub Workflow\nStatus][gh-actions-img]][github-actions]\n\n</div>\n\n_**Anvil**_ is a [framework](https://x.dev) for anvils.\n';
    assert.strictEqual(readmeOpening(wrapped, 900), '_**Anvil**_ is a [framework](https://x.dev) for anvils.');
  });

  it("dtolnay/semver's: its title and prose, none of the `[<img …>](…)` badges", () => {
    assert.strictEqual(
      readmeOpening(SEMVER, 1200),
      'semver\n======\n\nA parser and evaluator for Cargo\'s flavor of Semantic Versioning.\n\n' +
        'Semantic Versioning (see <https://semver.org>) is a guideline for how version\nnumbers are assigned and incremented. It is widely followed within the\nCargo/crates.io ecosystem for Rust.\n\n' +
        '```toml\n[dependencies]\nsemver = "1.0"\n```',
    );
  });

  it('centred HTML: the tagline and the prose, not the logo, the badges or the tags that only wrap them', () => {
    assert.strictEqual(
      readmeOpening(CENTRED, 1200),
      '    <em>FastAPI framework, high performance, easy to learn, fast to code, ready for production</em>\n\n' +
        'FastAPI is a modern, fast (high-performance), web framework for building APIs with Python.',
    );
  });

  it('a line with text keeps it, its badges left out; an HTML title is kept', () => {
    const titled = '# Anvil [![npm](https://img.shields.io/npm/v/anvil.svg)](https://npm.im/anvil) <a href="https://x"><img src="ci.svg"></a>\n\nStrikes things.\n';
    assert.strictEqual(readmeOpening(titled, 900), '# Anvil\n\nStrikes things.');
    const html = '<h1 align="center">Anvil</h1>\n<p align="center"><img src="logo.svg" width="80"></p>\n\n<a href="https://npm.im/anvil"><img src="https://img.shields.io/npm/v/anvil.svg"></a>&nbsp;<a href="https://x/ci"><img src="ci.svg"></a>\n\nStrikes things.\n';
    assert.strictEqual(readmeOpening(html, 900), '<h1 align="center">Anvil</h1>\n\nStrikes things.');
    // code keeps its brackets: a macro's `vec![…]` and an empty list are no image or link
    const code = '# Anvil\n\nBuild one with `vec![1, 2]` or `strike([])`.\n';
    assert.strictEqual(readmeOpening(code, 900), '# Anvil\n\nBuild one with `vec![1, 2]` or `strike([])`.');
  });
});
