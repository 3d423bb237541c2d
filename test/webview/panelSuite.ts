// The frame every Chromium suite of the chat panel shares: the webview built, a loopback server and a browser for the
// suite, the events of a real recorded session (read from ../shared at run time), and the pages a test opens closed
// after it — each must have run without console errors, page errors or CSP violations.
import * as assert from 'assert';
import type { Browser } from 'playwright-core';
import type { SessionEvent } from '../../src/core/model/types';
import type { HostMessage } from '../../src/panel/protocol';
import { toPanelEvent } from '../../src/panel/viewData';
import { loadRecordedSessions } from '../helpers/fixtures';
import { buildWebview, launchBrowser, openPanel, startServer, type PanelPage, type PanelServer } from './harness';
import { allEvents, scriptFromRecorded, type SessionScript } from './sessionEvents';

/** The host sends runner events view-shaped (src/panel/viewData.ts), as here. */
export const ev = (event: SessionEvent): HostMessage => ({ type: 'event', event: toPanelEvent(event, undefined) });
export const evs = (events: SessionEvent[]): HostMessage[] => events.map(ev);

export interface PanelSuite {
  /** The recorded session's events (set once the suite's `before` ran). */
  readonly script: SessionScript;
  /** A new panel page, closed (and checked for errors) after the test. */
  open(theme?: 'dark' | 'light', viewport?: { width: number; height: number }): Promise<PanelPage>;
  /** The whole recorded session sent to a page, as the host sends it while the session runs. */
  fullSession(p: PanelPage, trusted?: boolean): Promise<void>;
}

/** Registers the suite's hooks in the `describe` that calls it. */
export function panelSuite(): PanelSuite {
  let browser: Browser;
  let server: PanelServer;
  let script: SessionScript | undefined;
  const pages: PanelPage[] = [];

  before(async () => {
    buildWebview();
    const complete = loadRecordedSessions().find((s) => s.complete && s.steps.length === 5);
    if (!complete) throw new Error('no complete recorded session in ../shared/fixtures/recorded-sessions');
    script = scriptFromRecorded(complete);
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async () => {
    for (const p of pages.splice(0)) {
      const problems = p.problems.slice();
      await p.page.context().close();
      assert.deepStrictEqual(problems, [], 'the page logged errors');
    }
  });

  const suite: PanelSuite = {
    get script(): SessionScript {
      if (!script) throw new Error('the suite has not started');
      return script;
    },
    async open(theme = 'dark', viewport) {
      const p = await openPanel(browser, server, theme, viewport);
      pages.push(p);
      return p;
    },
    async fullSession(p, trusted = true) {
      await p.send({ type: 'capabilities', trusted, provider: 'Anthropic API', model: suite.script.session.model }, { type: 'busy', running: true });
      await p.send(...evs(allEvents(suite.script)));
      await p.send({ type: 'busy', running: false });
    },
  };
  return suite;
}
