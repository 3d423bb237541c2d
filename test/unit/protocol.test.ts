import * as assert from 'assert';
import * as path from 'path';
import { isHostMessage, isPanelEvent, isSafeExternalHref, isWebviewMessage, MAX_ANSWER_LENGTH, MAX_ANSWERS, MAX_PATH_LENGTH } from '../../src/panel/protocolGuards';
import { fileView, toPanelEvent, workspaceRelative } from '../../src/panel/viewData';
import type { ProposedFile, SessionEvent } from '../../src/core/model/types';
import { renderPanelHtml } from '../../src/panel/html';

describe('panel protocol: isWebviewMessage', () => {
  const valid: unknown[] = [
    { type: 'ready' },
    { type: 'stop' },
    { type: 'retry', step: 'deva' },
    { type: 'resume', taskId: 'task-1779078001280' },
    { type: 'openDiff', path: 'src/a.ts' },
    { type: 'setFileDecision', path: 'src/a.ts', decision: 'accept' },
    { type: 'setFileDecision', path: 'src/a.ts', decision: 'reject' },
    { type: 'applyFiles' },
    { type: 'discardFiles' },
    { type: 'submitObjective', text: 'Add a login page' },
    { type: 'submitObjective', text: '' },
    { type: 'openLink', href: 'https://example.com/a?b=1' },
    { type: 'openLink', href: 'http://localhost:3000/' },
    { type: 'openFile', path: 'cape/5_sessions/retrospective/x.md' },
    { type: 'openFile', path: 'src/list.tsx', line: 22 },
    { type: 'openFile', path: 'src/list.tsx', line: 22, endLine: 26 },
    { type: 'copy', text: 'hello' },
    { type: 'answerQuestions', taskId: 'task-1', answers: ['A toggle.', ''] },
    { type: 'skipQuestions', taskId: 'task-1' },
  ];
  for (const m of valid) it(`accepts ${JSON.stringify(m)}`, () => assert.strictEqual(isWebviewMessage(m), true));

  const invalid: [string, unknown][] = [
    ['null', null],
    ['a string', 'ready'],
    ['an array', [{ type: 'ready' }]],
    ['an unknown type', { type: 'deleteEverything' }],
    ['a missing type', { step: 'poa' }],
    ['retry of an unknown step', { type: 'retry', step: 'qa' }],
    ['retry without step', { type: 'retry' }],
    ['resume with an empty task id', { type: 'resume', taskId: '' }],
    ['resume with a path-like task id', { type: 'resume', taskId: '../../etc' }],
    ['answers that are all blank', { type: 'answerQuestions', taskId: 'task-1', answers: ['', '  '] }],
    ['no answers', { type: 'answerQuestions', taskId: 'task-1', answers: [] }],
    ['an answer that is not text', { type: 'answerQuestions', taskId: 'task-1', answers: ['ok', 3] }],
    ['a megabyte answer', { type: 'answerQuestions', taskId: 'task-1', answers: ['x'.repeat(MAX_ANSWER_LENGTH + 1)] }],
    ['more answers than a questionnaire', { type: 'answerQuestions', taskId: 'task-1', answers: Array.from({ length: MAX_ANSWERS + 1 }, () => 'a') }],
    ['answers for a path-like task id', { type: 'answerQuestions', taskId: '../x', answers: ['a'] }],
    ['skipQuestions without a task id', { type: 'skipQuestions' }],
    ['openDiff with a number path', { type: 'openDiff', path: 42 }],
    ['openDiff with an empty path', { type: 'openDiff', path: '   ' }],
    ['openDiff with a NUL byte', { type: 'openDiff', path: 'a\u0000b' }],
    ['openDiff with a huge path', { type: 'openDiff', path: 'a'.repeat(MAX_PATH_LENGTH + 1) }],
    ['openFile at line 0', { type: 'openFile', path: 'a.ts', line: 0 }],
    ['openFile at a line that is not a whole number', { type: 'openFile', path: 'a.ts', line: 1.5 }],
    ['openFile at a line given as text', { type: 'openFile', path: 'a.ts', line: '12' }],
    ['openFile to a line past any file', { type: 'openFile', path: 'a.ts', line: 1, endLine: 1e9 }],
    ['a decision that is not accept/reject', { type: 'setFileDecision', path: 'a', decision: 'apply' }],
    ['submitObjective without text', { type: 'submitObjective' }],
    ['openLink javascript:', { type: 'openLink', href: 'javascript:alert(1)' }],
    ['openLink JavaScript: with case and spaces', { type: 'openLink', href: ' JavaScript:alert(1)' }],
    ['openLink data:', { type: 'openLink', href: 'data:text/html,<script>1</script>' }],
    ['openLink file:', { type: 'openLink', href: 'file:///etc/passwd' }],
    ['openLink command:', { type: 'openLink', href: 'command:workbench.action.terminal.new' }],
    ['openLink relative', { type: 'openLink', href: '/x' }],
    ['openLink with credentials', { type: 'openLink', href: 'https://user:pw@example.com' }],
    ['copy with an object', { type: 'copy', text: { a: 1 } }],
  ];
  for (const [name, m] of invalid) it(`rejects ${name}`, () => assert.strictEqual(isWebviewMessage(m), false));
});

describe('panel protocol: isHostMessage', () => {
  const envelope = { agent: 'POA', role: 'Product Owner', task_id: 't', voice: 'v', output: {}, references: [], confidence: 4, ass: null };
  const valid: unknown[] = [
    { type: 'event', event: { type: 'session-started', taskId: 't', objective: 'o', language: 'ja', steps: ['cm_open', 'poa'], resumed: false } },
    { type: 'event', event: { type: 'voice-delta', step: 'poa', text: 'hi' } },
    { type: 'event', event: { type: 'envelope', step: 'poa', envelope, summary: null } },
    { type: 'event', event: { type: 'error', step: null, kind: 'auth', message: 'bad key' } },
    { type: 'event', event: { type: 'error', step: 'da', kind: 'network', message: 'reset' } },
    { type: 'reset' },
    { type: 'reset', state: { version: 1, session: null } },
    { type: 'files', files: [{ path: 'a.ts', action: 'create', status: 'proposed' }, { path: '../x', action: 'modify', status: 'refused', reason: 'outside' }] },
    { type: 'capabilities', trusted: false, provider: 'Anthropic', model: 'claude' },
    { type: 'busy', running: true },
    { type: 'askObjective', prompt: 'Next?' },
  ];
  for (const m of valid) it(`accepts ${JSON.stringify(m).slice(0, 80)}`, () => assert.strictEqual(isHostMessage(m), true));

  const invalid: [string, unknown][] = [
    ['undefined', undefined],
    ['a webview message', { type: 'ready' }],
    ['an event of unknown type', { type: 'event', event: { type: 'explode' } }],
    ['a step event with a bad step', { type: 'event', event: { type: 'voice-delta', step: 'nope', text: 'x' } }],
    ['a voice delta without text', { type: 'event', event: { type: 'voice-delta', step: 'poa' } }],
    ['an envelope that is a string', { type: 'event', event: { type: 'envelope', step: 'poa', envelope: '<script>' } }],
    ['session-started with bad steps', { type: 'event', event: { type: 'session-started', taskId: 't', steps: ['x'] } }],
    ['reset with a state lacking version', { type: 'reset', state: {} }],
    ['files with a bad status', { type: 'files', files: [{ path: 'a', action: 'create', status: 'deleted' }] }],
    ['files with a bad action', { type: 'files', files: [{ path: 'a', action: 'remove', status: 'proposed' }] }],
    ['files not an array', { type: 'files', files: {} }],
    ['capabilities with a string trusted', { type: 'capabilities', trusted: 'yes', provider: 'p', model: 'm' }],
    ['busy without running', { type: 'busy' }],
    ['askObjective with a number prompt', { type: 'askObjective', prompt: 3 }],
  ];
  for (const [name, m] of invalid) it(`rejects ${name}`, () => assert.strictEqual(isHostMessage(m), false));

  it('isPanelEvent agrees with isHostMessage on the event payload', () => {
    assert.strictEqual(isPanelEvent({ type: 'step-finished', step: 'cm_retro', artifactPath: 'x', durationMs: 1 }), true);
    assert.strictEqual(isPanelEvent({ type: 'step-finished', step: 'retro', artifactPath: 'x', durationMs: 1 }), false);
  });

  it('a file-proposed event must carry a FileView (not a bare path object)', () => {
    assert.strictEqual(isPanelEvent({ type: 'file-proposed', step: 'deva', file: { path: 'a.ts', action: 'create', status: 'proposed' } }), true);
    assert.strictEqual(isPanelEvent({ type: 'file-proposed', step: 'deva', file: { path: 'a.ts' } }), false);
    assert.strictEqual(isPanelEvent({ type: 'output-delta', step: 'da', chars: 12 }), true);
    assert.strictEqual(isPanelEvent({ type: 'warning', step: 'poa', message: 'two envelopes' }), true);
    assert.strictEqual(isPanelEvent({ type: 'warning', step: 'poa', message: 7 }), false);
    assert.strictEqual(isPanelEvent({ type: 'warning', step: null, message: 'm' }), false);
    assert.strictEqual(isPanelEvent({ type: 'output-delta', step: 'da', text: '{"raw": "json"' }), false, 'the raw output is not sent');
    assert.strictEqual(isPanelEvent({ type: 'output-delta', step: 'da', chars: -1 }), false);
    assert.strictEqual(isPanelEvent({ type: 'session-finished', taskId: 't', files: [{ path: 'a.ts', status: 'x' }] }), false);
  });
});

describe('panel protocol: helpers', () => {
  it('isSafeExternalHref only allows http(s) without credentials', () => {
    assert.strictEqual(isSafeExternalHref('https://a.example/x'), true);
    assert.strictEqual(isSafeExternalHref('vscode://file/x'), false);
    assert.strictEqual(isSafeExternalHref('not a url'), false);
  });

});

describe('panel view data: fileView / toPanelEvent (the one ProposedFile → view mapping)', () => {
  const root = path.resolve('/ws/project');
  const proposed: ProposedFile = {
    path: './src\\a.ts',
    relPath: 'src/a.ts',
    absPath: path.join(root, 'src', 'a.ts'),
    action: 'modify',
    status: 'proposed',
    content: 'SECRET-NEW-BODY',
    currentContent: 'SECRET-OLD-BODY',
  };
  const refused: ProposedFile = { path: '/etc/passwd', action: 'create', status: 'refused', reason: 'absolute path', content: 'x' };

  it('fileView prefers relPath, keeps refused reasons, and takes the host decision when given', () => {
    assert.deepStrictEqual(fileView(proposed), { path: 'src/a.ts', action: 'modify', status: 'proposed' });
    assert.deepStrictEqual(fileView(refused), { path: '/etc/passwd', action: 'create', status: 'refused', reason: 'absolute path' });
    assert.deepStrictEqual(fileView(proposed, { status: 'accepted' }), { path: 'src/a.ts', action: 'modify', status: 'accepted' });
    assert.deepStrictEqual(fileView(proposed, { status: 'accepted', reason: 'save failed' }), { path: 'src/a.ts', action: 'modify', status: 'accepted', reason: 'save failed' });
    assert.deepStrictEqual(fileView({ ...proposed, status: 'applied' }), { path: 'src/a.ts', action: 'modify', status: 'applied' });
  });

  it('toPanelEvent sends no absolute path, no file body and no raw reply to the webview', () => {
    const events: SessionEvent[] = [
      { type: 'output-delta', step: 'deva', text: '{"SECRET-OUTPUT-JSON": 1' },
      { type: 'file-proposed', step: 'deva', file: proposed },
      { type: 'step-finished', step: 'deva', artifactPath: path.join(root, 'cape', '5_sessions', 'pair', 't_4_DevA_1.json'), durationMs: 5 },
      { type: 'error', step: 'deva', kind: 'invalid_reply', message: 'bad', raw: 'SECRET-RAW-REPLY' },
      {
        type: 'session-finished',
        taskId: 't',
        retrospectivePath: path.join(root, 'cape', '5_sessions', 'retrospective', 'r.md'),
        kpt: { keep: [], problem: [], try: [] },
        metrics: {} as never,
        files: [proposed, refused],
        openQuestions: [{ id: 'POA-Q1', from: 'POA', text: 'Is the list paged?', answer: { by: 'DA', text: 'Yes, 10 a page.', evidence: 'src/list.ts:4' } }],
      },
    ];
    const shown = events.map((e) => toPanelEvent(e, root));
    const json = JSON.stringify(shown);
    for (const secret of ['SECRET-OUTPUT-JSON', 'SECRET-NEW-BODY', 'SECRET-OLD-BODY', 'SECRET-RAW-REPLY', 'absPath', 'currentContent', JSON.stringify(root).slice(1, -1)]) {
      assert.ok(!json.includes(secret), `${secret} reached the webview: ${json}`);
    }
    for (const e of shown) assert.strictEqual(isPanelEvent(e), true, JSON.stringify(e));
    assert.deepStrictEqual(shown[0], { type: 'output-delta', step: 'deva', chars: 24 });
    assert.deepStrictEqual(shown[1], { type: 'file-proposed', step: 'deva', file: { path: 'src/a.ts', action: 'modify', status: 'proposed' } });
    assert.strictEqual((shown[2] as { artifactPath: string }).artifactPath, 'cape/5_sessions/pair/t_4_DevA_1.json');
    assert.deepStrictEqual(shown[3], { type: 'error', step: 'deva', kind: 'invalid_reply', message: 'bad' });
    const fin = shown[4] as Extract<typeof shown[number], { type: 'session-finished' }>;
    assert.strictEqual(fin.retrospectivePath, 'cape/5_sessions/retrospective/r.md');
    assert.deepStrictEqual(fin.files.map((f) => f.path), ['src/a.ts', '/etc/passwd']);
    assert.deepStrictEqual(fin.openQuestions, [{ id: 'POA-Q1', from: 'POA', text: 'Is the list paged?', answer: { by: 'DA', text: 'Yes, 10 a page.', evidence: 'src/list.ts:4' } }]);
  });

  it('other events pass unchanged; an absolute path outside the workspace is cut to its name', () => {
    const v: SessionEvent = { type: 'voice-delta', step: 'poa', text: 'hi' };
    assert.strictEqual(toPanelEvent(v, root), v);
    const out = toPanelEvent({ type: 'step-finished', step: 'poa', artifactPath: path.resolve('/elsewhere/x.json'), durationMs: 1 }, root);
    assert.strictEqual((out as { artifactPath: string }).artifactPath, 'x.json');
  });
});

describe('panel html: renderPanelHtml', () => {
  const opts = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'abcDEF0123456789xyz',
    scriptUri: 'https://x/dist/webview.js',
    styleUri: 'https://x/dist/webview-style.css',
    codiconsUri: 'https://x/dist/codicons/codicon.css',
  };

  it('produces a strict CSP, the root element and a nonce-bearing script', () => {
    const html = renderPanelHtml(opts);
    assert.match(html, /default-src 'none'; script-src 'nonce-abcDEF0123456789xyz'; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net;/);
    assert.match(html, /<div id="cape-root"/);
    assert.match(html, /<script nonce="abcDEF0123456789xyz" src="https:\/\/x\/dist\/webview\.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/x\/dist\/codicons\/codicon\.css">/);
    assert.ok(html.indexOf('codicon.css') < html.indexOf('webview-style.css'), 'codicons load before the app styles');
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(html, /style="/);
    // exactly one script, and it is external
    assert.strictEqual(html.match(/<script/g)?.length, 1);
  });

  it('escapes URIs so they cannot break out of attributes', () => {
    const html = renderPanelHtml({ ...opts, scriptUri: 'https://x/"><script>alert(1)</script>' });
    assert.strictEqual(html.match(/<script/g)?.length, 1);
    assert.match(html, /&quot;&gt;&lt;script&gt;/);
  });

  it('refuses a weak nonce or a cspSource that could inject directives', () => {
    assert.throws(() => renderPanelHtml({ ...opts, nonce: 'short' }), /nonce/);
    assert.throws(() => renderPanelHtml({ ...opts, nonce: "abcdefabcdefabcdef' 'unsafe-inline" }), /nonce/);
    assert.throws(() => renderPanelHtml({ ...opts, cspSource: "https://x; script-src 'unsafe-inline'" }), /cspSource/);
  });
});

describe('paths the panel shows (viewData.ts workspaceRelative)', () => {
  it('a name that starts with two dots is inside the workspace; a path above it is shown by its name only', () => {
    const root = path.resolve('/w');
    assert.strictEqual(workspaceRelative(path.join(root, '..cape', '5_sessions', 'retro.md'), root), '..cape/5_sessions/retro.md');
    assert.strictEqual(workspaceRelative(path.join(root, '..notes.md'), root), '..notes.md');
    assert.strictEqual(workspaceRelative(path.resolve(root, '..', 'other', 'x.md'), root), 'x.md');
  });
});
