/**
 * Where a cold load's renderer spent the time between the document's arrival and the first
 * contentful paint, from a Chrome performance trace (trace-load.ts): the self time of each
 * event on the page's main thread (CrRendererMain) in that window, summed by kind of work.
 */

/** A trace event as Chrome writes it (the Trace Event Format), as far as this reads it. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { documentLoaderURL?: string } };
}

/** The kinds of work, by the trace's event names; the rest of a task's time is "other". */
const KINDS: readonly (readonly [string, readonly string[]])[] = [
  [
    'commit the navigation',
    ['RenderFrameImpl::CommitNavigation', 'DocumentLoader::CommitNavigation', 'DocumentLoader::InitializeWindow'],
  ],
  ['preload scanner (start requests)', ['HTMLDocumentParser::ScanAndPreload', 'ResourceFetcher::requestResource']],
  ['parse HTML', ['ParseHTML', 'HTMLDocumentParser::PumpTokenizer']],
  ['parse CSS', ['CSSParserImpl::parseStyleSheet', 'Blink.ParseStyleSheet.UpdateTime']],
  ['style', ['UpdateLayoutTree', 'Document::updateStyle', 'Document::recalcStyle', 'Blink.Style.UpdateTime']],
  ['layout', ['Layout', 'LocalFrameView::layout', 'Blink.Layout.UpdateTime']],
  ['paint and commit a frame', ['PrePaint', 'Paint', 'Commit', 'Blink.Paint.UpdateTime', 'Blink.PrePaint.UpdateTime']],
  ['script', ['EvaluateScript', 'FunctionCall', 'RunMicrotasks', 'v8.compile', 'v8.run', 'V8.GC_SCAVENGER']],
  ['network responses', ['ResourceReceiveResponse', 'ResourceFinish', 'ResponseBodyLoader::DidFinishLoadingBody']],
];

const KIND_OF = new Map(KINDS.flatMap(([kind, names]) => names.map((name) => [name, kind] as const)));
const OTHER = 'other (tasks, messages)';

export interface TraceSummary {
  /** ms since the navigation started. */
  fcp: number;
  /** ms of each kind of work on the main thread from `from` to FCP, largest first. */
  busy: { kind: string; ms: number }[];
  /** ms of that window when the main thread ran no task. */
  idle: number;
}

/** The page's main thread: the renderer that started the navigation to `url`'s document. */
function pageThread(events: readonly TraceEvent[], url: string): { pid: number; tid: number; start: number } {
  const start = events.find(
    (event) => event.name === 'navigationStart' && event.args?.data?.documentLoaderURL?.startsWith(url),
  );
  if (!start) throw new Error(`no navigationStart for ${url} in the trace (the blink.user_timing category?)`);
  const main = events.find(
    (event) =>
      event.pid === start.pid &&
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.args?.name === 'CrRendererMain',
  );
  if (!main) throw new Error(`no CrRendererMain thread in the renderer of ${url}`);
  return { pid: start.pid, tid: main.tid, start: start.ts };
}

/**
 * The summary of the window from `fromMs` (ms since the navigation started: the document's
 * last byte) to FCP. Self time: an event's duration less that of the events inside it, so
 * nested events are counted once, under the innermost kind known.
 */
export function summarizeTrace(events: readonly TraceEvent[], url: string, fromMs: number): TraceSummary {
  const { pid, tid, start } = pageThread(events, url);
  const fcpEvent = events.find((event) => event.pid === pid && event.name === 'firstContentfulPaint');
  if (!fcpEvent) throw new Error('no firstContentfulPaint in the trace');
  const from = start + fromMs * 1000;
  const to = fcpEvent.ts;
  const complete = events
    .filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.dur !== undefined)
    .filter((event) => event.ts < to && event.ts + (event.dur ?? 0) > from)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const clip = (begin: number, end: number) => Math.max(0, Math.min(end, to) - Math.max(begin, from));
  const totals = new Map<string, number>();
  let busy = 0;
  // Each event with the kind it counts under (its own, or its enclosing event's) and its children's time.
  const stack: { end: number; kind: string }[] = [];
  const add = (kind: string, microseconds: number) => totals.set(kind, (totals.get(kind) ?? 0) + microseconds);
  const close = (until: number) => {
    while (stack.length > 0 && (stack[stack.length - 1]?.end ?? 0) <= until) stack.pop();
  };
  // Self time by sweeping: time between consecutive boundaries goes to the innermost open event.
  const boundaries = new Set<number>();
  for (const event of complete) {
    boundaries.add(event.ts);
    boundaries.add(event.ts + (event.dur ?? 0));
  }
  const points = [...boundaries].sort((a, b) => a - b);
  let next = 0;
  for (let index = 0; index < points.length - 1; index += 1) {
    const begin = points[index] as number;
    const end = points[index + 1] as number;
    close(begin);
    while (next < complete.length && (complete[next]?.ts ?? Infinity) <= begin) {
      const event = complete[next] as TraceEvent;
      next += 1;
      const eventEnd = event.ts + (event.dur ?? 0);
      if (eventEnd <= begin) continue;
      const kind = KIND_OF.get(event.name) ?? stack[stack.length - 1]?.kind ?? OTHER;
      stack.push({ end: eventEnd, kind });
    }
    const top = stack[stack.length - 1];
    if (!top) continue;
    const time = clip(begin, end);
    add(top.kind, time);
    busy += time;
  }
  return {
    fcp: (to - start) / 1000,
    busy: [...totals].map(([kind, microseconds]) => ({ kind, ms: microseconds / 1000 })).sort((a, b) => b.ms - a.ms),
    idle: (to - from - busy) / 1000,
  };
}
