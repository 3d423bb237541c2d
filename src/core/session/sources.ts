// Each context source's text as a step receives it (renderSource): the objective, the Cape Master's opening parts,
// POA's criteria and scope, DA's specifications, the role's cape/ domain files (whole, or packed for this work when
// too big: ./assetSources.ts), the opening's outline of them (./outline.ts) and their passages that speak of the
// objective (./passages.ts), the DoR / DoD / process parts a role needs, the workspace section, and the
// retrospective's sections.
// Which step receives which source is ./context.ts's CONTEXT_MATRIX; the retrospective's digest of each agent is
// ./outputs.ts's.
import { DOD_FILE, DOR_FILE, INPUT_CAPE_FILES, PROCESS_FILE } from '../cape/capeLayout';
import { checksForRetro, mayKeepGoing, mayRunPerTarget } from '../checks';
import { filesRead } from '../tools/reads';
import { handoffNames, withCitations } from './citations';
import { toolBoundsText } from '../tools/specs';
import { acceptanceCriteria, AS_BEFORE_TEXT, beforeText, COMPUTED_TEXT, criterionStatus, provedAsBefore, failFirstOf, failFirstRuns, lastRuns, namedTests, testLabel, type Criterion } from '../metrics/tsr';
import { STEP_AGENT, isPlainObject as isObject, type StepId, type WorkerAgent } from '../model/types';
import { reviewedChanges } from './retroReview';
import type { RankQuery } from '../workspace';
import type { ContextInputs } from './context';
import { domainFolderReaders, type ContextSource } from './matrix';
import { answersText } from './dorQuestions';
import { compact, pickKeys, retroAgentDigest, type Json } from './outputs';
import { collectOpenQuestions, questionLine, questionList, withQuestionIds } from './openQuestions';
import { watchOutsFor } from './watchOuts';
import { clip } from './clip';
import { projectOutline } from './outline';
import { ASSET_SOURCES, assetsUnder, cmOpening, projectFiles, teamPart } from './assetSources';
import { objectivePassages } from './passages';

/**
 * A source's text as `step` receives it, and whether that text is the same in every session as far as the domain
 * files go (`whole`: false when they were too big and packed for this step's work). The files are packed once here,
 * for both answers (packing a big cape/ costs hundreds of milliseconds).
 */
export function renderStepSource(source: ContextSource, step: StepId, inputs: ContextInputs): { text: string; whole: boolean } {
  const assets = ASSET_SOURCES[source];
  if (!assets) return { text: renderSource(source, step, inputs), whole: true };
  const packed = assetsUnder(inputs, assets.folder, step);
  return { text: section(assets.title, packed.text), whole: packed.whole };
}

/**
 * What the workspace is ranked by: the objective, the upstream work (POA's criteria and scope, DA's specs) and, for
 * DevA, the files DA read with its tools and the lines its reply cites (citations.ts).
 */
function workspaceQuery(step: StepId, inputs: ContextInputs): RankQuery {
  const work = [compact(inputs.envelopes.poa?.output)];
  if (step === 'deva') work.push(compact(inputs.envelopes.da?.output));
  const read = step === 'deva' ? withCitations(filesRead(inputs.toolCalls?.da), compact(inputs.envelopes.da?.output)) : [];
  const da = inputs.envelopes.da?.output;
  const names = step === 'deva' && isObject(da) ? handoffNames(da.handoff_notes_for_deva) : [];
  const upstream = read.length || names.length ? { read: { by: 'DA', files: read, ...(names.length ? { names } : {}) } } : {};
  return { objective: inputs.objective, work: work.join('\n'), ...upstream };
}

// POA's output keys vary between runs (and languages); these patterns pick the acceptance criteria / scope parts.
const POA_ACCEPTANCE = /accept|criteria|stor(y|ies)|given|\bac\b|受け入れ|ストーリー|基準/i;
const POA_SCOPE = /scope|exclu|moscow|priorit|open_question|question|constraint|スコープ|除外|優先|持ち越し|質問|制約/i;
/** Characters of POA's open questions shown to DevA (a handful of questions, each a sentence or two). */
const POA_QUESTIONS_CHARS = 2500;
/**
 * Characters of one acceptance criterion in the retrospective's request, which CM judges met or not: a Python trial's
 * POA wrote Given/When/Then criteria of 500–860 characters, and at 400 the Then's expected output was cut ("[…]"), so
 * CM judged three criteria by their tests' names alone.
 */
const RETRO_CRITERION_CHARS = 1200;
// DA's rationale/summary prose is for the retro; DevA gets the specifications and handoff notes.
const DA_NOT_FOR_DEVA = /rationale|philosophy|assessment|summary|approach|理由|方針|サマリー|根拠/i;

/** Commands as code spans (`npm test`), for the sections that name them. */
function codeList(commands: readonly string[] | undefined): string[] {
  return (commands ?? []).map((c) => (c.includes('`') ? c : `\`${c}\``));
}

/** A workspace section's body with the step's tool bounds first, when it has tools. */
function withToolBounds(inputs: ContextInputs, body: string): string {
  return inputs.toolBounds ? `${toolBoundsText(inputs.toolBounds)}\n\n${body}` : body;
}

export function section(title: string, body: string): string {
  return body.trim() ? `## ${title}\n${body.trim()}` : '';
}

export function renderSource(source: ContextSource, step: StepId, inputs: ContextInputs): string {
  const agent = STEP_AGENT[step];
  const worker = (agent === 'CM' ? null : agent) as WorkerAgent | null;
  const opening = cmOpening(inputs);
  switch (source) {
    case 'objective':
      return section('Objective', inputs.objective);
    case 'cape:files': {
      // What the DoR item "the files needed exist in cape/" is checked against.
      const present = INPUT_CAPE_FILES.filter((rel) => inputs.assets.get(rel)?.trim());
      const missing = INPUT_CAPE_FILES.filter((rel) => !inputs.assets.get(rel)?.trim());
      // whose files they are: the coaching must not send a role to a file it never receives (a trial's CM pointed POA
      // at cape/3_development/)
      const folders = domainFolderReaders();
      const readers = [...folders].map(([folder, roles]) => `${roles.join(', ')}: cape/${folder}/`).join('; ');
      // every project file a role receives (the expected ones and any the project added), outlined
      const outlined = projectFiles(inputs);
      return section(
        'Project files in cape/',
        `Present: ${present.map((r) => `cape/${r}`).join(', ') || '(none)'}\nMissing or empty: ${missing.map((r) => `cape/${r}`).join(', ') || '(none)'}\n` +
          `Each role receives only its own folder (${readers}); you see an outline of each file below (its headings and the start of each section), not the whole text. Coach a role with what its own files hold; what another folder says reaches it only if you write it in your note.` +
          (outlined.length ? `\n\n${projectOutline(outlined)}` : ''),
      );
    }
    case 'cape:passages': {
      // what the files say of this objective, which the outline shows only the start of (passages.ts)
      const files = projectFiles(inputs);
      return section('Passages of the cape/ files that speak of this objective (whole sections, or the entries of a list of them, best first)', objectivePassages(files, inputs.objective, projectOutline(files)));
    }
    case 'user:answers':
      return inputs.dorAnswers?.length ? section("Your blocking questions and the user's answers", answersText([...inputs.dorAnswers])) : '';
    case 'kptDigest':
      return section('KPT history digest (from earlier sessions)', inputs.kptDigest || '(no earlier sessions)');
    case 'team:dor':
      return section(`Definition of Ready (cape/${DOR_FILE}${worker ? `, ${worker} items` : ''})`, teamPart(inputs, DOR_FILE, worker));
    case 'team:dod':
      return section(`Definition of Done (cape/${DOD_FILE}${worker ? `, ${worker} items` : ''})`, teamPart(inputs, DOD_FILE, worker));
    case 'team:process':
      return section(`Session process (cape/${PROCESS_FILE})`, teamPart(inputs, PROCESS_FILE, null));
    case 'cm:brief':
      return opening
        ? section(
            'Cape Master brief',
            `${opening.session_brief}\n\nDefinition of Ready: ${opening.dor_check?.passed ? 'passed' : 'concerns'}` +
              (opening.dor_check?.concerns?.length ? '\n' + opening.dor_check.concerns.map((c) => `- ${c}`).join('\n') : ''),
          )
        : '';
    case 'cm:watchOuts': {
      // each role, the watch-outs that name it or the whole team (watchOuts.ts)
      const mine = worker && opening?.watch_out?.length ? watchOutsFor(worker, opening.watch_out) : [];
      return mine.length ? section('Watch out', mine.map((w) => `- ${w}`).join('\n')) : '';
    }
    case 'cm:coachingNote':
      return worker && opening?.coaching_notes?.[worker]
        ? section(`Cape Master's coaching note for you (${worker})`, opening.coaching_notes[worker])
        : '';
    case 'cm:goAhead': {
      const g = opening?.go_ahead;
      if (!g || (!g.pre_approved.length && !g.needs_approval.length)) return '';
      const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : '- (none named)');
      return section(
        "Cape Master's go-ahead",
        `Pre-approved (make these without asking):\n${list(g.pre_approved)}\n\nNeeds the human's approval (deliver as proposals, name them in open_questions):\n${list(g.needs_approval)}`,
      );
    }
    case 'poa:acceptance': {
      const out = inputs.envelopes.poa?.output;
      return out === undefined ? '' : section("POA's acceptance criteria", compact(pickKeys(out, POA_ACCEPTANCE)));
    }
    case 'poa:scope': {
      // its open questions named (POA-Q1), so DA can answer one it settles by reading the code
      const out = withQuestionIds(inputs.envelopes.poa?.output, 'POA');
      if (out === undefined) return '';
      const scope = pickKeys(out, POA_SCOPE);
      // pickKeys falls back to the whole object; do not send it twice next to the acceptance criteria.
      return scope === out ? '' : section("POA's scope and priorities", compact(scope));
    }
    case 'poa:questions': {
      // POA's open questions, named, with DA's answers: DevA is told not to raise them again and may settle one the
      // code answers — a Vue trial's DevA, shown none, asked the human again what POA had asked (POA's scope, where
      // they sit for DA, is not DevA's to read)
      const poa = inputs.envelopes.poa;
      if (!poa) return '';
      const asked = collectOpenQuestions({ poa, da: inputs.envelopes.da }).filter((q) => q.from === 'POA');
      return asked.length ? section("POA's open questions (already with the human)", questionList(asked, POA_QUESTIONS_CHARS)) : '';
    }
    case 'da:specs': {
      const out = withQuestionIds(inputs.envelopes.da?.output, 'DA');
      if (!isObject(out)) return out === undefined ? '' : section("DA's design specifications", compact(out));
      const specs: Json = {};
      for (const [k, v] of Object.entries(out)) if (!DA_NOT_FOR_DEVA.test(k)) specs[k] = v;
      return section("DA's design specifications", compact(Object.keys(specs).length ? specs : out));
    }
    case 'assets:1_product':
    case 'assets:2_design':
    case 'assets:3_development':
      return renderStepSource(source, step, inputs).text;
    case 'workspace:ranked':
      return section(
        'Workspace (existing files, ranked for this work)',
        withToolBounds(inputs, inputs.workspace?.('deva', workspaceQuery(step, inputs)) || '(none: the workspace has no files outside cape/ yet)'),
      );
    case 'workspace:ui':
      return section(
        'Workspace interface (UI files; without them, the code users call)',
        withToolBounds(
          inputs,
          inputs.workspace?.('da', workspaceQuery(step, inputs)) ||
            // with tools, DA can still look (a library's or a CLI's interface is its API, messages and help)
            (inputs.toolBounds ? '(no UI or product source files found by name: list or search the workspace for what the user meets)' : ''),
        ),
      );
    case 'retro:opening':
      return opening
        ? section(
            'Your opening (Cape Master)',
            compact({
              session_brief: opening.session_brief,
              dor_check: opening.dor_check,
              watch_out: opening.watch_out,
              coaching_notes: opening.coaching_notes,
              go_ahead: opening.go_ahead,
            }),
          )
        : '';
    case 'retro:envelopes': {
      const parts: string[] = [];
      // each role's open questions named, with the answers later roles gave them
      const questions = collectOpenQuestions(inputs.envelopes);
      for (const s of ['poa', 'da', 'deva'] as const) {
        const env = inputs.envelopes[s];
        const own = questions.filter((q) => q.from === STEP_AGENT[s]).map(questionLine);
        if (env) parts.push(`### ${env.agent}\n` + compact(retroAgentDigest(env, own)));
      }
      return section(
        'What each agent delivered (voice, an outline of its output, its open questions and departures, its self-assessment)',
        parts.join('\n\n'),
      );
    }
    case 'retro:feedback': {
      const rounds = inputs.feedback ?? [];
      return section(
        'Questions DevA asked during its step, and the answers it built on',
        rounds
          .map((f) => `${f.from} asked ${f.to}:\n${f.questions.map((q) => `- ${clip(q, 600)}`).join('\n')}\n${f.to} answered: ${f.answerText ? clip(f.answerText, 1500) : '(no usable answer: DevA decided alone)'}`)
          .join('\n\n'),
      );
    }
    case 'retro:devaFiles': {
      if (!inputs.devaFiles.length && !inputs.devaSummary) return '';
      const list = inputs.devaFiles
        .map((f) => `- ${f.relPath ?? f.path} (${f.action}${f.status === 'refused' ? `, refused: ${f.reason}` : ''})`)
        .join('\n');
      return section("DevA's files (list and summary only)", `${list}\n\n${inputs.devaSummary ?? ''}`);
    }
    case 'checks:planned': {
      const commands = codeList(inputs.plannedChecks);
      if (commands.length) {
        // a cargo test there runs once per test target (checks/cargoTargets.ts), a CMake build keeps going past a
        // test program that does not compile (checks/ctestPrograms.ts): what is observed is per target, per program
        const perTarget = inputs.plannedChecks?.some(mayRunPerTarget)
          ? ' A `cargo test` can run there once per test target (`tests/<name>.rs`), so a guard in a file of its own runs even where a file using the new API does not build.'
          : inputs.plannedChecks?.some(mayKeepGoing)
            ? ' Its CMake build there keeps going past a test program that does not compile, and CTest runs the others, so a guard in a test program apart from the new API\'s tests (an existing one fits) runs even where one using the new API does not build.'
            : '';
        const failFirst = inputs.plannedFailFirst
          ? ` Then your test files alone run on the unchanged workspace (fail-first): a test of the change should fail there, a regression guard pass; the retrospective sees both results per criterion.${perTarget}`
          : '';
        return section('Checks on your proposal', `After your reply CAPE runs ${commands.join(', ')} on a scratch copy of the workspace with your files applied; a failing check comes back to you with its output to fix.${failFirst}`);
      }
      const notRun = codeList(inputs.checksNotRun);
      return notRun.length
        ? section('Checks on your proposal', `The project's checks (${notRun.join(', ')}) do not run in this session: nothing tests your files before the user reviews them. Say in your test strategy which of them the user should run.`)
        : '';
    }
    case 'checks:session': {
      // the opening's coaching must not ask DevA for test runs that will not happen (a trial)
      const planned = codeList(inputs.plannedChecks);
      const notRun = codeList(inputs.checksNotRun);
      const failFirst = inputs.plannedFailFirst ? " Then DevA's test files alone run on the unchanged code, so fail-first is observed, not only reasoned." : '';
      if (planned.length) return section("The project's checks", `CAPE runs ${planned.join(', ')} on DevA's proposal in a scratch copy; a failing one goes back to DevA to fix.${failFirst}`);
      return notRun.length ? section("The project's checks", `Found but not run in this session: ${notRun.join(', ')}. Nothing tests DevA's proposal before the user reviews it.`) : '';
    }
    case 'retro:checks': {
      if (inputs.checks && inputs.checks.commands.length) return section("The project's checks on DevA's proposal (results only)", checksForRetro(inputs.checks));
      const notRun = codeList(inputs.checksNotRun);
      return notRun.length
        ? section("The project's checks on DevA's proposal", `Not run in this session (found: ${notRun.join(', ')}): no test of DevA's files has run.`)
        : '';
    }
    case 'retro:criteria': {
      const criteria = acceptanceCriteria(inputs.envelopes.poa?.output);
      if (!criteria.length) return '';
      const tests = namedTests(inputs.envelopes.deva?.output);
      // the checks' verdict on each criterion's tests, as the computed TSR will count it (metrics/tsr.ts)
      const runs = inputs.checks && inputs.fileExists ? lastRuns(inputs.checks) : null;
      const before = runs && inputs.checks ? failFirstRuns(inputs.checks) : null;
      const line = (c: Criterion) => {
        const t = tests.get(c.id) ?? [];
        const status = runs ? criterionStatus(t, inputs.fileExists!, runs) : null;
        // a criterion left to review had no test in the checks: its files' changes follow
        const verdict = !status ? '' : status === 'review' ? ` — no test proves it: ${COMPUTED_TEXT.review}` : ` — in the checks' last run: ${COMPUTED_TEXT[status]}${status === 'pass' && provedAsBefore(t, runs!) ? ` (${AS_BEFORE_TEXT})` : ''}`;
        const first = before ? failFirstOf(t, inputs.fileExists!, before) : null;
        const failFirst = first ? `; with only DevA's tests on the unchanged code: ${beforeText(first)}` : '';
        return `- ${c.id}: ${clip(c.text, RETRO_CRITERION_CHARS)} — DevA's test${t.length > 1 ? 's' : ''}: ${t.length ? t.map(testLabel).join('; ') : '(none named)'}${verdict}${failFirst}`;
      };
      const review = reviewedChanges(criteria, tests, inputs.devaFiles ?? []);
      return section(`POA's acceptance criteria, with the tests DevA named for each${runs ? ' and how they fared' : ''}`, criteria.map(line).join('\n') + (review ? `\n\n${review}` : ''));
    }
  }
}

/** Some sources rendered as `step` would receive them (for a request outside the five steps, e.g. a blocker). */
export function renderSources(step: StepId, sources: readonly ContextSource[], inputs: ContextInputs): string {
  return sources.map((s) => renderSource(s, step, inputs)).filter(Boolean).join('\n\n');
}
