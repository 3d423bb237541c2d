// DevA → DA → DevA: when DevA's reply raises blockers (`output.blockers`, see reply/envelope.ts), DA is asked once —
// it sees its own specification, DevA's questions and POA's acceptance criteria, and answers in its envelope — and
// DevA then answers again with DA's answer. At most `feedbackRounds` rounds per session (default 1), never recursive:
// DA cannot ask back, and blockers left after the last round are only reported.
//
// DevA's step (./step.ts; its requests in ./conversation.ts: tools, continuation, repair) calls this module, which
// owns DA's answer request, the message that brings the answer back to DevA and the record kept in DevA's pair
// artifact.
import { toLlmError } from '../llm/errors';
import { pricedModel } from '../llm/pricing';
import { withStepRetry, type StepRetryOptions } from '../llm/retry';
import { replyTurn } from '../llm/toolLoop';
import { parseReply, repairPrompt } from '../reply/parser';
import { addUsage, ZERO_USAGE, type AgentId, type Blocker, type ChatMessage, type Envelope, type FeedbackRecord, type LlmClient, type SessionEvent, type SystemBlock, type Usage } from '../model/types';
import { compact, renderSources, type ContextInputs } from './context';
import { section } from './sources';

/** Output budget of DA's answer (an answer, not a new specification). */
export const BLOCKER_ANSWER_MAX_TOKENS = 4000;

/** The blockers of a reply that the engine can route: today, questions for DA. */
export function routableBlockers(blockers: Blocker[] | undefined): Blocker[] {
  return (blockers ?? []).filter((b) => b.to === 'DA');
}

/** DA's answer request: its own specification (whole), DevA's questions and POA's acceptance criteria. */
export function blockerRequest(inputs: ContextInputs, rolePrompt: string, questions: string[]): { system: SystemBlock[]; user: string } {
  const spec = inputs.envelopes.da?.output;
  const user = [
    `Task: ${inputs.taskId}\nSession language: ${inputs.language}`,
    renderSources('da', ['objective', 'poa:acceptance'], inputs),
    section('Your design specification (DA)', compact(spec)),
    section("DevA's questions to you", questions.map((q, i) => `${i + 1}. ${q}`).join('\n')),
  ]
    .filter(Boolean)
    .join('\n\n');
  return { system: [{ text: inputs.preamble, cache: '1h' }, { text: rolePrompt }], user };
}

/** What DevA receives of the answer: the voice and the answer output. */
export function answerText(answer: Envelope): string {
  return [answer.voice.trim(), compact(answer.output)].filter(Boolean).join('\n\n');
}

/** DevA's next user turn: its questions and DA's answer (or that there is none), then the full reply asked for. */
export function blockerAnswerPrompt(to: AgentId, questions: string[], answer: string | null): string {
  return [
    answer ? `${to} answered your blockers.` : `${to} could not answer your blockers: decide yourself and record each decision in departures.`,
    '',
    'Your questions:',
    ...questions.map((q) => `- ${q}`),
    ...(answer ? ['', `${to}'s answer:`, answer] : []),
    '',
    'Now send your complete reply in the same format: the ```json envelope (without blockers), every <file path="…"> and ' +
      '<edit path="…"> block, and one <summary>…</summary>. What still stays open goes to open_questions.',
  ].join('\n');
}

export interface AskOptions {
  llm: LlmClient;
  model: string;
  system: SystemBlock[];
  user: string;
  signal?: AbortSignal;
  retry?: Pick<StepRetryOptions, 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs' | 'onRetry'>;
}

export interface AskResult {
  raw: string;
  envelope: Envelope | null;
  /** Why the reply could not be used (after one repair request). */
  error?: string;
  usage: Usage;
  model: string;
}

/**
 * Asks DA (one request, retried on transient errors like any step; one repair request when the reply does not
 * validate). Model errors after the retries are thrown (the step fails and can be resumed); a reply that stays
 * invalid is returned with `error`, so DevA goes on without an answer rather than losing the session.
 */
export async function askAnswer(o: AskOptions): Promise<AskResult> {
  let usage: Usage = { ...ZERO_USAGE };
  let model = o.model;
  const send = (messages: ChatMessage[]) =>
    withStepRetry(
      async () => {
        try {
          const res = await o.llm.stream({ model: o.model, maxTokens: BLOCKER_ANSWER_MAX_TOKENS, system: o.system, messages, signal: o.signal }, () => undefined);
          usage = addUsage(usage, res.usage);
          model = pricedModel(res.model, model);
          return res;
        } catch (e) {
          const err = toLlmError(e, {});
          // an attempt that broke off after its reply started used tokens too (as in conversation.ts)
          if (err.usage) usage = addUsage(usage, err.usage);
          throw err;
        }
      },
      { ...o.retry, signal: o.signal },
    );
  const first: ChatMessage[] = [{ role: 'user', content: o.user }];
  let raw = (await send(first)).text;
  let parsed = parseReply('da', raw);
  if (!parsed.ok) {
    const again = await send([...first, replyTurn(raw), { role: 'user', content: repairPrompt('da', parsed.error, raw) }]);
    raw = again.text;
    parsed = parseReply('da', raw);
  }
  if (!parsed.ok) return { raw, envelope: null, error: parsed.error, usage, model };
  return { raw, envelope: parsed.reply.envelope, usage, model };
}

export interface ResolveOptions {
  /** DevA's reply so far (the first one, then each rerun's). */
  current(): { raw: string; envelope: Envelope };
  /** Rounds allowed (DEFAULT_FEEDBACK_ROUNDS unless set; 0 = blockers are only reported). */
  rounds: number;
  /** Asks `to` the questions (the runner builds the request from the session's context). */
  ask(to: AgentId, questions: string[]): Promise<AskResult>;
  /** DevA answers again with this user turn after its previous reply. */
  rerun(prompt: string): Promise<void>;
  emit(e: SessionEvent): void;
  warn(message: string): void;
}

/** Runs the rounds while DevA's reply raises routable blockers; returns what each round asked and answered. */
export async function resolveBlockers(o: ResolveOptions): Promise<FeedbackRecord[]> {
  const records: FeedbackRecord[] = [];
  for (let round = 1; ; round++) {
    const { raw, envelope } = o.current();
    const blockers = routableBlockers(envelope.blockers);
    const others = (envelope.blockers ?? []).filter((b) => !blockers.includes(b));
    if (others.length) o.warn(`DevA raised blocker(s) for ${[...new Set(others.map((b) => b.to))].join(', ')}; only DA can be asked during a session, so they stay in DevA's reply for the retrospective.`);
    if (!blockers.length) return records;
    if (round > o.rounds) {
      o.warn(
        o.rounds === 0
          ? `DevA raised ${blockers.length} blocker(s) for DA, but feedback rounds are off (cape.feedbackRounds / --feedback-rounds 0): DevA's reply is used as it is.`
          : `DevA still raised ${blockers.length} blocker(s) after ${o.rounds} round(s) with DA; its last reply is used as it is.`,
      );
      return records;
    }
    const to: AgentId = 'DA';
    const questions = blockers.map((b) => b.question);
    o.emit({ type: 'blocker', step: 'deva', from: 'DevA', to, round, questions, voice: envelope.voice });
    const got = await o.ask(to, questions);
    const text = got.envelope ? answerText(got.envelope) : null;
    if (got.error) o.warn(`${to}'s answer to DevA's blocker(s) could not be used (${got.error.split('\n')[0]}); DevA decides alone.`);
    o.emit({ type: 'blocker-answer', step: 'deva', from: to, round, voice: got.envelope?.voice ?? '', answer: text ?? '' });
    records.push({
      round,
      from: 'DevA',
      to,
      questions,
      blockedRaw: raw,
      answerRaw: got.raw,
      ...(got.envelope ? { answer: got.envelope } : {}),
      answerText: text ?? '',
      usage: got.usage,
      model: got.model,
    });
    await o.rerun(blockerAnswerPrompt(to, questions, text));
  }
}
