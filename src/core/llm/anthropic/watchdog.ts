// The idle watchdog of a streamed request: the SDK's timeout only covers the wait for response headers, so a stream
// that stalls after the first byte would hang forever. The watchdog is armed during each HTTP attempt, reset by every
// chunk of bytes (pings included), and paused while the SDK sleeps between its own retries.
import type { Middleware } from '@anthropic-ai/sdk';
import { timerDelay } from '../../model/dates';

/** A restartable idle timer, armed only while an HTTP attempt is in flight. */
export class IdleWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private armed = false;
  /** The content type of a successful response that is not an event stream (a proxy's page, another API). */
  notAStream: string | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  arm(): void {
    this.armed = true;
    this.restart();
  }

  touch(): void {
    if (this.armed) this.restart();
  }

  disarm(): void {
    this.armed = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private restart(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.armed = false;
      this.onIdle();
    }, timerDelay(this.ms));
  }
}

/** Per-request middleware that feeds the watchdog with every chunk of the response body. */
export function watchdogMiddleware(watchdog: IdleWatchdog): Middleware {
  return async (request, next) => {
    watchdog.arm();
    let res: Response;
    try {
      res = await next(request);
    } catch (e) {
      watchdog.disarm(); // the SDK may now sleep before retrying; the next attempt re-arms
      throw e;
    }
    watchdog.touch();
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && !type.includes('text/event-stream')) watchdog.notAStream = type || 'no content type';
    if (!res.ok || !res.body) {
      watchdog.disarm();
      return res;
    }
    const observed = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          watchdog.touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(observed, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
