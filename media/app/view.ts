// Renders the panel from the view model. The layout:
//   header (sticky): title, task, provider/model, Stop, and the five-step stepper
//   main: earlier sessions (collapsed), the objective, one turn per started step, the files section after DevA
//   footer: the objective box when the host asks for the next objective
// Updates are incremental by `Change`; keyboard focus is kept across re-renders through data-focus-key.
import { STEP_IDS, type StepId } from '../../src/core/model/types';
import type { FileView } from '../../src/panel/protocol';
import { AGENT_NAME, avatar, button, formatMs, formatUsd, h, icon, STEP_LABEL } from './dom';
import { renderInline, renderMarkdown } from './markdown';
import { isRunning, strList, type Change, type CheckItemView, type Exchange, type PanelViewState, type QuestionsView, type SessionView, type StepView } from './model';
import { renderConversation, renderKpt, renderMetrics, renderOpeningCard, renderSelfAssessment, renderValue } from './output';

const STATUS_ICON: Record<StepView['status'], string> = {
  pending: 'circle-large-outline',
  running: 'loading',
  done: 'pass-filled',
  failed: 'error',
  skipped: 'circle-slash',
};

const STATUS_TEXT: Record<StepView['status'], string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  failed: 'failed',
  skipped: 'skipped',
};

const ERROR_TITLE: Record<string, string> = {
  auth: 'Authentication failed',
  rate_limit: 'Rate limited',
  overloaded: 'The model is overloaded',
  network: 'Network error',
  stalled: 'The response stalled',
  cancelled: 'Stopped',
  invalid_reply: 'The reply could not be understood',
  config: 'Configuration problem',
  io: 'File system error',
  cost_cap: 'Cost cap reached',
  unknown: 'Something went wrong',
};

export class PanelView {
  private header = h('header', { class: 'panel-header' });
  private main = h('main', { class: 'transcript', attrs: { 'aria-label': 'Session transcript' } });
  private footer = h('footer', { class: 'objective-footer' });

  constructor(private readonly root: HTMLElement) {
    root.replaceChildren(this.header, this.main, this.footer);
  }

  render(state: PanelViewState, change: Change = { kind: 'all' }): void {
    const stick = this.nearBottom();
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    switch (change.kind) {
      case 'voice-append':
        if (!this.appendVoice(change.step!, change.text ?? '')) this.renderStep(state, change.step!);
        break;
      case 'output-progress':
        if (!this.updateProgress(state, change.step!)) this.renderStep(state, change.step!);
        break;
      case 'step':
        this.renderHeader(state);
        this.renderStep(state, change.step!);
        break;
      case 'files':
        this.renderHeader(state);
        this.renderFiles(state);
        break;
      case 'header':
        this.renderHeader(state);
        break;
      case 'chrome':
        this.renderHeader(state);
        this.renderFooter(state);
        this.renderFiles(state);
        // Retry/Resume depend on whether a run is in progress.
        this.main.querySelectorAll<HTMLButtonElement>('.session[data-current="true"] button[data-action="retry"], .session[data-current="true"] button[data-action="resume"]').forEach((b) => (b.disabled = state.busy));
        this.updateAnswerButtons(state);
        break;
      default:
        this.renderHeader(state);
        this.renderMain(state);
        this.renderFooter(state);
    }
    if (focusKey && (document.activeElement === document.body || !document.activeElement?.isConnected)) {
      const again = this.root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again && !(again as HTMLButtonElement).disabled) again.focus();
    }
    if (stick && change.kind !== 'chrome') this.scrollToBottom();
  }

  // ─── header ─────────────────────────────────────────────────────────────────────────────────────────────

  private renderHeader(state: PanelViewState): void {
    const s = state.session;
    const running = isRunning(state);
    const title = h('div', { class: 'header-title' }, icon('organization'), h('span', { class: 'app-name', text: 'CAPE' }));
    if (s?.taskId) title.append(h('span', { class: 'task-id', text: s.taskId, attrs: { title: 'Task id' } }));
    const meta = h('div', { class: 'header-meta' });
    if (state.capabilities) {
      const cap = state.capabilities;
      meta.append(h('span', { class: 'chip', attrs: { title: `Provider: ${cap.provider}` } }, icon('sparkle'), ` ${cap.model || cap.provider}`));
      if (!cap.trusted) meta.append(h('span', { class: 'chip chip-warn', attrs: { title: 'Restricted mode: files cannot be applied' } }, icon('shield'), ' Restricted'));
    }
    if (s?.cost) meta.append(this.costChip(s.cost));
    meta.append(
      button({ label: 'Stop', action: 'stop', icon: 'debug-stop', disabled: !running, title: running ? 'Stop the running session' : 'Nothing is running', focusKey: 'stop' }),
    );
    const stepper = h('ol', { class: 'stepper', attrs: { 'aria-label': 'Session progress' } });
    STEP_IDS.forEach((id, i) => {
      const st: StepView['status'] = s ? s.steps[id].status : 'pending';
      const started = !!s && st !== 'pending' && st !== 'skipped';
      const inner = [h('span', { class: 'step-icon' }, icon(STATUS_ICON[st], st === 'running' ? 'codicon-modifier-spin' : '')), h('span', { class: 'step-name', text: STEP_LABEL[id] }), h('span', { class: 'sr-only', text: `: ${STATUS_TEXT[st]}` })];
      const item = started
        ? h('button', { class: 'step-link', attrs: { type: 'button', title: `${STEP_LABEL[id]} — ${STATUS_TEXT[st]}` }, data: { action: 'scrollTo', step: id, focusKey: `scroll:${id}` } }, ...inner)
        : h('span', { class: 'step-link', attrs: { title: `${STEP_LABEL[id]} — ${STATUS_TEXT[st]}` } }, ...inner);
      const li = h('li', { class: `step step-${st}`, data: { step: id, status: st } }, item);
      if (st === 'running') li.setAttribute('aria-current', 'step');
      if (i > 0) li.prepend(h('span', { class: 'step-connector', attrs: { 'aria-hidden': 'true' } }));
      stepper.append(li);
    });
    const status = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite' }, text: this.statusSentence(state) });
    this.header.replaceChildren(h('div', { class: 'header-row' }, title, meta), stepper, status);
  }

  /** The session's running cost (and cap), updated after every response. */
  private costChip(c: { spentUsd: number | null; capUsd: number | null }): HTMLElement {
    const spent = c.spentUsd === null ? 'cost unknown' : formatUsd(c.spentUsd);
    const text = c.capUsd === null ? spent : `${spent} of ${formatUsd(c.capUsd)}`;
    const title =
      c.spentUsd === null
        ? 'A model without a known price answered: the cost of this session is unknown' + (c.capUsd === null ? '' : ', so its cap cannot be enforced')
        : `Spent by this session so far (list prices)${c.capUsd === null ? '' : `; cost cap ${formatUsd(c.capUsd)}`}`;
    return h('span', { class: 'chip chip-cost', data: { testid: 'session-cost' }, attrs: { title } }, icon('credit-card'), ` ${text}`);
  }

  private statusSentence(state: PanelViewState): string {
    const s = state.session;
    if (!s) return '';
    if (s.finished) return 'Session finished.';
    const failed = STEP_IDS.find((id) => s.steps[id].status === 'failed');
    if (failed) return `${STEP_LABEL[failed]} failed.`;
    const run = STEP_IDS.find((id) => s.steps[id].status === 'running');
    return run ? `${STEP_LABEL[run]} is running.` : '';
  }

  // ─── main ───────────────────────────────────────────────────────────────────────────────────────────────

  private renderMain(state: PanelViewState): void {
    const children: HTMLElement[] = [];
    if (state.history.length) {
      const hist = h('div', { class: 'history' });
      for (const old of state.history) {
        const d = h('details', { class: 'history-item' }, h('summary', {}, icon('history'), h('span', { text: ` ${old.taskId}` }), h('span', { class: 'muted', text: old.objective ? ` — ${old.objective}` : '' })));
        d.append(this.sessionBody(old, state, true));
        hist.append(d);
      }
      children.push(hist);
    }
    if (state.session) children.push(this.sessionBody(state.session, state, false));
    else
      children.push(
        h('div', { class: 'empty' }, h('div', { class: 'empty-avatars' }, avatar('CM'), avatar('POA'), avatar('DA'), avatar('DevA')), h('p', { text: 'No session yet. Start a CAPE session and the team will work here: the Cape Master opens, the Product Owner, Designer and Developer each take a turn, and the retrospective closes.' })),
      );
    this.main.replaceChildren(...children);
  }

  /** One session: objective, error banner, turns, files. `readonly` for the archived ones (no actions). */
  private sessionBody(s: SessionView, state: PanelViewState, readonly: boolean): HTMLElement {
    const body = h('div', { class: 'session', data: { current: readonly ? undefined : 'true' } });
    if (s.objective) {
      body.append(h('div', { class: 'objective' }, h('div', { class: 'objective-label' }, icon('target'), ' Objective'), renderMarkdown(s.objective)));
    }
    if (s.error) {
      const banner = h('div', { class: 'error-box', attrs: { role: 'alert' } }, h('div', { class: 'error-title' }, icon('error'), ` ${ERROR_TITLE[s.error.kind] ?? ERROR_TITLE.unknown}`), h('p', { class: 'error-message', text: s.error.message }));
      if (!readonly && s.taskId) banner.append(h('div', { class: 'actions' }, button({ label: 'Resume', action: 'resume', icon: 'debug-restart', data: { taskId: s.taskId }, disabled: state.busy })));
      body.append(banner);
    }
    for (const id of STEP_IDS) {
      const turn = this.turn(s, s.steps[id], state, readonly);
      if (turn) body.append(turn);
      if (id === 'deva') body.append(this.filesSection(s, state, readonly));
    }
    return body;
  }

  private currentSession(): HTMLElement | null {
    return this.main.querySelector<HTMLElement>('.session[data-current="true"]');
  }

  private renderStep(state: PanelViewState, step: StepId): void {
    const container = this.currentSession();
    const s = state.session;
    if (!container || !s) return this.renderMain(state);
    const old = container.querySelector(`.turn[data-step="${step}"]`);
    const fresh = this.turn(s, s.steps[step], state, false);
    if (old && fresh) old.replaceWith(fresh);
    else if (old) old.remove();
    else if (fresh) {
      // Document order: the turns in step order, with the files section right after DevA's turn.
      const slots = ['cm_open', 'poa', 'da', 'deva', 'files', 'cm_retro'];
      const find = (slot: string) => (slot === 'files' ? container.querySelector('.files') : container.querySelector(`.turn[data-step="${slot}"]`));
      const before = slots.slice(slots.indexOf(step) + 1).map(find).find((x) => x) ?? null;
      container.insertBefore(fresh, before);
    }
  }

  private appendVoice(step: StepId, text: string): boolean {
    const el = this.currentSession()?.querySelector(`.turn[data-step="${step}"] .voice`);
    if (!el) return false;
    el.classList.remove('voice-empty');
    el.append(document.createTextNode(text));
    return true;
  }

  private updateProgress(state: PanelViewState, step: StepId): boolean {
    const el = this.currentSession()?.querySelector(`.turn[data-step="${step}"] .working-count`);
    const s = state.session?.steps[step];
    if (!el || !s) return false;
    el.textContent = this.workingText(s.outputChars);
    return true;
  }

  private workingText(chars: number): string {
    return chars >= 1000 ? `${(chars / 1000).toFixed(1)}k characters` : `${chars} characters`;
  }

  private turn(s: SessionView, st: StepView, state: PanelViewState, readonly: boolean): HTMLElement | null {
    if (st.status === 'pending' || st.status === 'skipped') return null;
    const agent = st.agent;
    const turn = h('article', { class: `turn turn-${st.status}`, data: { step: st.step }, attrs: { id: readonly ? undefined : `turn-${st.step}`, 'aria-label': `${AGENT_NAME[agent]} — ${STEP_LABEL[st.step]}` } });
    const head = h(
      'div',
      { class: 'turn-head' },
      h('span', { class: 'turn-name', text: AGENT_NAME[agent] }),
      h('span', { class: 'turn-step', text: STEP_LABEL[st.step] }),
    );
    if (st.attempt > 1) head.append(h('span', { class: 'chip', text: `attempt ${st.attempt}` }));
    if (st.status === 'running') head.append(h('span', { class: 'turn-status' }, icon('loading', 'codicon-modifier-spin'), h('span', { text: 'working' })));
    if (st.status === 'done' && st.durationMs != null) head.append(h('span', { class: 'turn-status muted', text: formatMs(st.durationMs) }));
    if (st.voice) head.append(button({ label: 'Copy voice', action: 'copy', icon: 'copy', iconOnly: true, data: { copyStep: st.step }, focusKey: `copy:${st.step}` }));

    const body = h('div', { class: 'turn-body' }, head);
    if (s.resumed && st.status === 'done' && !st.envelope && !st.voice) {
      body.append(h('p', { class: 'muted', text: 'Completed in an earlier run.' }));
    }
    for (const n of st.notes) body.append(h('div', { class: 'note' }, icon('sync'), h('span', { text: ` ${n}` })));
    for (const w of st.warnings ?? []) body.append(h('div', { class: 'note note-warning', attrs: { role: 'status' } }, icon('warning'), h('span', { text: ` ${w}` })));
    if (st.tools && st.tools.length > 0) {
      // One chip per tool call, in order, as they happen; refused or bounded calls in the warning colour.
      const chips = h('div', { class: 'tool-calls', attrs: { role: 'list', 'aria-label': `${AGENT_NAME[agent]}'s reads of the workspace` } });
      for (const t of st.tools) {
        chips.append(
          h('span', { class: `tool-call tool-call-${t.tone}`, attrs: { role: 'listitem', title: t.text } }, icon(t.tone === 'warning' ? 'warning' : 'file'), h('span', { text: ` ${t.text}` })),
        );
      }
      body.append(chips);
    }

    for (const x of st.exchanges ?? []) body.append(this.exchange(x));

    // The live voice: plain text nodes only. aria-live so screen readers follow the stream politely.
    const voice = h('div', { class: `voice${st.voice ? '' : ' voice-empty'}`, attrs: { 'aria-live': 'polite' } });
    if (st.voice) voice.append(document.createTextNode(st.voice));
    if (st.voice || st.status === 'running') body.append(voice);

    if (st.checks && st.checks.length) body.append(this.checksBlock(st, readonly));
    if (st.status === 'running' && !st.envelope && st.outputChars > 0 && !st.checks?.length) {
      body.append(h('div', { class: 'working', attrs: { role: 'status' } }, icon('loading', 'codicon-modifier-spin'), h('span', { text: ' Writing the output… ' }), h('span', { class: 'working-count muted', text: this.workingText(st.outputChars) })));
    }
    if (st.envelope) body.append(...this.envelopeBody(s, st));
    if (st.step === 'cm_open' && s.questions) body.append(this.questionsBlock(s, s.questions, state, readonly));
    if (st.step === 'cm_retro' && s.finished) body.append(this.retroResults(s));
    if (st.error) body.append(this.errorBox(s, st, state, readonly));
    turn.append(avatar(agent), body);
    return turn;
  }

  /** DevA's blockers and the answer, as a short conversation inside DevA's turn (model text: inline-rendered). */
  private exchange(x: Exchange): HTMLElement {
    const turns = [{ speaker: x.from, text: x.questions.length > 1 ? x.questions.map((q, i) => `${i + 1}. ${q}`).join(' ') : x.questions[0] ?? '' }];
    if (x.answer) turns.push({ speaker: x.to, text: x.answer });
    const wrap = h('div', { class: 'exchange', attrs: { role: 'group', 'aria-label': `${x.from} asks ${x.to}` } }, h('div', { class: 'note' }, icon('comment-discussion'), h('span', { text: ` ${x.from} asked ${x.to} about the specs` })), renderConversation(turns, `${x.from} and ${x.to}`));
    if (x.answer === null) wrap.append(h('div', { class: 'working', attrs: { role: 'status' } }, icon('loading', 'codicon-modifier-spin'), h('span', { text: ` ${x.to} is answering…` })));
    else if (!x.answer) wrap.append(h('p', { class: 'muted', text: `${x.to}'s answer could not be used; ${x.from} decides alone.` }));
    return wrap;
  }

  /**
   * The Cape Master's blocking questions inside its opening turn: while open, one answer box per question with
   * "Submit answers" (enabled once something is typed) and "Continue anyway"; afterwards what the user said.
   */
  private questionsBlock(s: SessionView, q: QuestionsView, state: PanelViewState, readonly: boolean): HTMLElement {
    const questions = strList(q.questions);
    const answers = Array.isArray(q.answers) ? q.answers.map((a) => (typeof a === 'string' ? a : '')) : [];
    const open = q.status === 'open' && !readonly;
    const n = questions.length;
    const title =
      q.status === 'answered'
        ? `You answered the Cape Master's question${n === 1 ? '' : 's'}`
        : q.status === 'skipped'
          ? 'You continued without answering'
          : `The Cape Master needs ${n === 1 ? 'an answer' : `${n} answers`} before the team starts`;
    const headId = readonly ? undefined : 'cape-questions-title';
    const block = h(
      'section',
      { class: `dor-questions dor-questions-${q.status}`, attrs: { 'aria-labelledby': headId, 'aria-label': headId ? undefined : title } },
      h('h3', { class: 'section-title dor-questions-title', attrs: { id: headId } }, icon(q.status === 'open' ? 'question' : q.status === 'answered' ? 'comment-discussion' : 'debug-continue'), ` ${title}`),
    );
    const list = h('ol', { class: 'question-list' });
    questions.forEach((question, i) => {
      const item = h('li', { class: 'question' });
      if (open) {
        const id = `cape-answer-${i}`;
        item.append(
          h('label', { class: 'question-text', attrs: { for: id } }, renderInline(question)),
          h('textarea', { class: 'answer-input', attrs: { id, rows: '2', placeholder: 'Your answer (leave empty to let the team assume)' }, data: { answerIndex: String(i), focusKey: `answer:${i}` } }),
        );
      } else {
        item.append(h('div', { class: 'question-text' }, renderInline(question)));
        if (q.status === 'answered') item.append(h('div', { class: 'answer-text', text: answers[i]?.trim() || 'No answer: the team assumes.' }));
      }
      list.append(item);
    });
    block.append(list);
    if (open) {
      block.append(
        h('p', { class: 'hint' }, icon('info'), h('span', { text: ' The session is saved and waits. Your answers go to the Cape Master, who opens again with them; or continue without, and the team states its assumptions.' })),
        h(
          'div',
          { class: 'actions' },
          button({ label: 'Submit answers', action: 'answerQuestions', icon: 'send', primary: true, data: { taskId: s.taskId }, disabled: true, title: 'Type at least one answer first', focusKey: 'answer-questions' }),
          button({ label: 'Continue anyway', action: 'skipQuestions', icon: 'debug-continue', data: { taskId: s.taskId }, disabled: state.busy, title: 'Go on without answers: the team states its assumptions', focusKey: 'skip-questions' }),
        ),
      );
    } else if (q.status === 'skipped') {
      block.append(h('p', { class: 'hint' }, icon('info'), h('span', { text: ' The team went on from this opening and states its assumptions.' })));
    }
    return block;
  }

  /** Output sections the user opened stay open when their turn is rendered again (keys: round and command). */
  private openOutputs = new Set<string>();

  /** DevA's checks: each run (command, pass/fail, duration, the output collapsed), each fix round, the outcome. */
  private checksBlock(st: StepView, readonly: boolean): HTMLElement {
    const list = h('ol', { class: 'check-list', attrs: { 'aria-label': 'Checks on the proposal' } });
    for (const item of st.checks ?? []) list.append(item.kind === 'run' ? this.checkRun(item, readonly) : this.fixRound(item));
    const block = h('section', { class: 'checks' }, h('h3', { class: 'section-title', text: 'Checks on the proposal' }), list);
    const o = st.checksOutcome;
    if (o) {
      const text = o.passed
        ? `Every check passes${o.fixRounds ? ` after ${o.fixRounds} fix round${o.fixRounds === 1 ? '' : 's'}` : ''}.`
        : `Still failing after ${o.fixRounds} fix round${o.fixRounds === 1 ? '' : 's'}: DevA's last proposal is kept for your review.`;
      block.append(h('p', { class: `check-outcome check-outcome-${o.passed ? 'passed' : 'failed'}`, attrs: { role: 'status' } }, icon(o.passed ? 'pass' : 'warning'), h('span', { text: ` ${text}` })));
    }
    return block;
  }

  private checkRun(r: Extract<CheckItemView, { kind: 'run' }>, readonly: boolean): HTMLElement {
    const how: Record<typeof r.status, string> = {
      running: 'running…',
      passed: 'passed',
      failed: `failed · exit ${r.exitCode ?? 'signal'}`,
      timeout: 'killed at the time limit',
      cancelled: 'stopped',
      error: 'could not start',
    };
    const glyph = r.status === 'running' ? icon('loading', 'codicon-modifier-spin') : icon(r.status === 'passed' ? 'pass' : r.status === 'cancelled' ? 'debug-stop' : 'error');
    const head = h(
      'div',
      { class: 'check-head' },
      glyph,
      h('code', { class: 'check-command', text: r.command }),
      h('span', { class: 'check-status', text: how[r.status] }),
      h('span', { class: 'chip check-round', text: r.round === 0 ? 'first run' : `after fix ${r.round}` }),
    );
    if (r.durationMs !== null && r.status !== 'running') head.append(h('span', { class: 'muted check-duration', text: formatMs(r.durationMs) }));
    const row = h('li', { class: `check-run check-${r.status}`, data: { round: String(r.round), status: r.status } }, head);
    if (r.output) {
      const key = `${r.round}:${r.command}`;
      const details = h('details', { class: 'check-output' }, h('summary', {}, h('span', { text: 'Output' })), h('pre', { class: 'check-output-text', text: r.output }));
      if (!readonly && this.openOutputs.has(key)) details.open = true;
      details.addEventListener('toggle', () => (details.open ? this.openOutputs.add(key) : this.openOutputs.delete(key)));
      row.append(details);
    }
    return row;
  }

  private fixRound(f: Extract<CheckItemView, { kind: 'fix' }>): HTMLElement {
    const row = h(
      'li',
      { class: 'check-fix', data: { round: String(f.round) } },
      h('div', { class: 'check-head' }, icon('sync'), h('span', { text: ` Fix round ${f.round} of ${f.max}: DevA fixes ${f.failing.join(', ')}` })),
    );
    if (f.files) row.append(h('div', { class: 'muted check-fix-files', text: f.files.length ? `Changed ${f.files.join(', ')}` : 'No file changed' }));
    for (const p of f.problems) row.append(h('div', { class: 'note' }, icon('warning'), h('span', { text: ` ${p}` })));
    return row;
  }

  private envelopeBody(s: SessionView, st: StepView): HTMLElement[] {
    const env = st.envelope!;
    const out: HTMLElement[] = [];
    if (st.step === 'cm_retro') {
      if (env.conversation.length) out.push(h('h3', { class: 'section-title', text: 'Conversation' }), renderConversation(env.conversation));
      if (!s.finished && env.kpt) out.push(h('h3', { class: 'section-title', text: 'Keep / Problem / Try' }), renderKpt(env.kpt));
      if (env.output !== null && env.output !== undefined) out.push(renderValue(env.output));
      return out;
    }
    if (st.step === 'cm_open') {
      const card = renderOpeningCard(env.output);
      out.push(card ?? renderValue(env.output));
      return out;
    }
    if (env.output !== null && env.output !== undefined) {
      // An output written as text (the CAPE paper's envelope) is markdown: rendered through the sanitising renderer.
      const rendered = typeof env.output === 'string' ? renderMarkdown(env.output) : renderValue(env.output);
      out.push(h('details', { class: 'output', attrs: { open: '' } }, h('summary', {}, h('span', { text: 'Output' })), h('div', { class: 'output-body' }, rendered)));
    }
    if (st.summary) out.push(h('div', { class: 'summary' }, h('h3', { class: 'section-title', text: 'Summary' }), renderMarkdown(st.summary)));
    const sa = renderSelfAssessment(env);
    if (sa) out.push(sa);
    return out;
  }

  private retroResults(s: SessionView): HTMLElement {
    const f = s.finished!;
    const wrap = h('div', { class: 'retro-results' }, h('h3', { class: 'section-title', text: 'Keep / Problem / Try' }), renderKpt(f.kpt), h('h3', { class: 'section-title', text: 'Metrics' }), renderMetrics(f.metrics, s.steps));
    if (f.retrospectivePath) {
      wrap.append(h('p', { class: 'muted retro-path' }, h('span', { text: 'Saved to ' }), h('button', { class: 'link-button', text: f.retrospectivePath, attrs: { type: 'button' }, data: { action: 'openFile', path: f.retrospectivePath, focusKey: 'retro-path' } })));
    }
    return wrap;
  }

  private errorBox(s: SessionView, st: StepView, state: PanelViewState, readonly: boolean): HTMLElement {
    const e = st.error!;
    const box = h('div', { class: 'error-box', attrs: { role: 'alert' } }, h('div', { class: 'error-title' }, icon(e.kind === 'cancelled' ? 'debug-stop' : 'error'), ` ${ERROR_TITLE[e.kind] ?? ERROR_TITLE.unknown}`), h('p', { class: 'error-message', text: e.message }));
    if (!readonly) {
      const actions = h('div', { class: 'actions' }, button({ label: 'Retry', action: 'retry', icon: 'refresh', primary: true, data: { step: st.step }, disabled: state.busy, focusKey: `retry:${st.step}` }));
      if (s.taskId) actions.append(button({ label: 'Resume session', action: 'resume', icon: 'debug-restart', data: { taskId: s.taskId }, disabled: state.busy, focusKey: 'resume' }));
      box.append(actions);
    }
    return box;
  }

  /** Submit answers is enabled once an answer is typed (and no run is in progress); Continue anyway when idle. */
  updateAnswerButtons(state: PanelViewState): void {
    const block = this.currentSession()?.querySelector('.dor-questions-open');
    if (!block) return;
    const typed = Array.from(block.querySelectorAll<HTMLTextAreaElement>('.answer-input')).some((t) => t.value.trim() !== '');
    const submit = block.querySelector<HTMLButtonElement>('button[data-action="answerQuestions"]');
    const skip = block.querySelector<HTMLButtonElement>('button[data-action="skipQuestions"]');
    if (submit) {
      submit.disabled = state.busy || !typed;
      submit.title = state.busy ? 'A session is running' : typed ? 'Send your answers to the Cape Master' : 'Type at least one answer first';
    }
    if (skip) skip.disabled = state.busy;
  }

  /** The typed answers, in the questions' order. */
  answers(): string[] {
    const boxes = Array.from(this.currentSession()?.querySelectorAll<HTMLTextAreaElement>('.dor-questions-open .answer-input') ?? []);
    return boxes.sort((a, b) => Number(a.dataset.answerIndex) - Number(b.dataset.answerIndex)).map((t) => t.value);
  }

  // ─── files ──────────────────────────────────────────────────────────────────────────────────────────────

  private renderFiles(state: PanelViewState): void {
    const container = this.currentSession();
    if (!container || !state.session) return this.renderMain(state);
    const old = container.querySelector('.files');
    const fresh = this.filesSection(state.session, state, false);
    if (old) old.replaceWith(fresh);
    else container.insertBefore(fresh, container.querySelector('.turn[data-step="cm_retro"]'));
  }

  private filesSection(s: SessionView, state: PanelViewState, readonly: boolean): HTMLElement {
    const section = h('section', { class: 'files', attrs: { 'aria-label': 'Proposed files' } });
    if (!s.files.length) {
      section.hidden = true;
      return section;
    }
    const trusted = state.capabilities?.trusted !== false;
    const accepted = s.files.filter((f) => f.status === 'accepted').length;
    const pending = s.files.filter((f) => f.status === 'proposed').length;
    section.append(
      h('h3', { class: 'section-title' }, icon('files'), ` Proposed files`, h('span', { class: 'count', text: String(s.files.length) })),
      h('ul', { class: 'file-list' }, ...s.files.map((f) => this.fileRow(f, readonly))),
    );
    if (readonly) return section;
    const actionable = s.files.some((f) => f.status === 'proposed' || f.status === 'accepted' || f.status === 'rejected');
    if (!actionable) return section;
    const actions = h('div', { class: 'actions files-actions' });
    if (pending) actions.append(button({ label: 'Accept all', action: 'acceptAll', icon: 'check-all', focusKey: 'accept-all' }));
    actions.append(
      button({
        label: accepted ? `Apply ${accepted} file${accepted === 1 ? '' : 's'}` : 'Apply',
        action: 'apply',
        icon: 'check',
        primary: true,
        disabled: !trusted || accepted === 0,
        title: !trusted ? 'Applying files is disabled in an untrusted workspace' : accepted === 0 ? 'Accept at least one file first' : 'Write the accepted files to the workspace',
        focusKey: 'apply',
      }),
      button({
        label: 'Review Hunks',
        action: 'reviewHunks',
        icon: 'list-selection',
        disabled: !trusted || accepted === 0,
        title: !trusted
          ? 'Applying files is disabled in an untrusted workspace'
          : accepted === 0
            ? 'Accept at least one file first'
            : "Pick single changes of the accepted files in VS Code's refactor preview (they open unticked)",
        focusKey: 'review-hunks',
      }),
      button({ label: 'Discard', action: 'discard', icon: 'trash', focusKey: 'discard', title: 'Drop all proposed files' }),
    );
    section.append(actions);
    if (!trusted) {
      section.append(h('p', { class: 'hint hint-warn', attrs: { role: 'note' } }, icon('shield'), h('span', { text: ' This workspace is not trusted, so CAPE will not write files to it. Trust the workspace (Manage Workspace Trust) to apply accepted files; you can still review the diffs.' })));
    } else if (accepted === 0) {
      section.append(h('p', { class: 'hint' }, icon('info'), h('span', { text: ' Accept the files you want, then Apply. Nothing is written before that.' })));
    } else {
      section.append(
        h('p', { class: 'hint hint-hunks' }, icon('info'), h('span', { text: " Review Hunks opens VS Code's refactor preview with every change of the accepted files unticked: tick the hunks to keep, then Apply there (one undo step)." })),
      );
    }
    return section;
  }

  private fileRow(f: FileView, readonly: boolean): HTMLElement {
    const badge =
      f.status === 'refused'
        ? h('span', { class: 'badge badge-refused', text: 'refused' })
        : f.action === 'create'
          ? h('span', { class: 'badge badge-new', text: 'new' })
          : h('span', { class: 'badge badge-modified', text: 'modified' });
    const row = h('li', { class: `file file-${f.status}`, data: { path: f.path, status: f.status } });
    const name = h('div', { class: 'file-name' }, icon(f.status === 'refused' ? 'circle-slash' : f.action === 'create' ? 'file-add' : 'file-code'), h('span', { class: 'file-path', text: f.path, attrs: { title: f.path } }), badge);
    if (f.status === 'applied') name.append(h('span', { class: 'badge badge-applied', text: 'applied' }));
    row.append(name);
    if (f.reason) row.append(h('div', { class: 'file-reason', text: f.reason }));
    if (f.warning) row.append(h('div', { class: 'file-warning', attrs: { role: 'note' } }, icon('warning'), h('span', { text: ` ${f.warning}` })));
    if (readonly) return row;
    const buttons = h('div', { class: 'file-actions' });
    if (f.status !== 'refused') buttons.append(button({ label: 'Diff', action: 'diff', icon: 'diff', data: { path: f.path }, focusKey: `diff:${f.path}`, title: `Compare ${f.path}` }));
    if (f.status === 'applied') buttons.append(button({ label: 'Open', action: 'openFile', icon: 'go-to-file', data: { path: f.path }, focusKey: `open:${f.path}` }));
    if (f.status === 'proposed' || f.status === 'accepted' || f.status === 'rejected') {
      const seg = h('div', { class: 'segmented', attrs: { role: 'group', 'aria-label': `Decision for ${f.path}` } });
      seg.append(
        button({ label: 'Accept', action: 'accept', icon: 'check', pressed: f.status === 'accepted', data: { path: f.path }, focusKey: `accept:${f.path}` }),
        button({ label: 'Reject', action: 'reject', icon: 'close', pressed: f.status === 'rejected', data: { path: f.path }, focusKey: `reject:${f.path}` }),
      );
      buttons.append(seg);
    }
    row.append(buttons);
    return row;
  }

  // ─── footer ─────────────────────────────────────────────────────────────────────────────────────────────

  private renderFooter(state: PanelViewState): void {
    if (!state.ask) {
      this.footer.hidden = true;
      this.footer.replaceChildren();
      return;
    }
    if (!this.footer.hidden && this.footer.querySelector('textarea')) {
      // Keep what the user is typing; only refresh the prompt.
      const label = this.footer.querySelector('.objective-prompt');
      if (label) label.textContent = state.ask.prompt || 'What should the team do next?';
      return;
    }
    this.footer.hidden = false;
    const ta = h('textarea', { class: 'objective-input', attrs: { id: 'cape-objective', rows: '3', placeholder: 'Describe the next objective… (leave empty to finish)' } });
    const form = h(
      'form',
      { class: 'objective-form', attrs: { 'aria-label': 'Next objective' } },
      h('label', { class: 'objective-prompt', text: state.ask.prompt || 'What should the team do next?', attrs: { for: 'cape-objective' } }),
      ta,
      h(
        'div',
        { class: 'objective-actions' },
        h('span', { class: 'hint muted', text: `${/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl'}+Enter to send · empty to finish` }),
        button({ label: 'Finish', action: 'endLoop', icon: 'close', focusKey: 'end-loop', title: 'End the session loop' }),
        button({ label: 'Send', action: 'send', icon: 'send', primary: true, focusKey: 'send' }),
      ),
    );
    this.footer.replaceChildren(form);
    ta.focus();
  }

  // ─── scrolling ──────────────────────────────────────────────────────────────────────────────────────────

  private nearBottom(): boolean {
    const el = document.scrollingElement ?? document.documentElement;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 120;
  }

  private scrollToBottom(): void {
    const el = document.scrollingElement ?? document.documentElement;
    el.scrollTop = el.scrollHeight;
  }

  scrollToStep(step: StepId): void {
    const el = document.getElementById(`turn-${step}`);
    if (!el) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    el.focus?.();
  }
}
