/**
 * A bound on expensive work (rendering a PDF): at most `concurrency` jobs run at once across the
 * process, at most `maxWaiting` wait for a turn, and one key (a client) holds at most `perKey`
 * places, running or waiting. A job over any bound is not started: `run` answers 'busy' at
 * once, so a flood from one client neither queues without end nor delays everyone else.
 */
export interface WorkGateLimits {
  concurrency: number;
  maxWaiting: number;
  perKey: number;
}

export class WorkGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: WorkGateLimits) {}

  async run<T>(key: string, job: () => Promise<T>): Promise<{ status: 'done'; value: T } | { status: 'busy' }> {
    const mine = this.held.get(key) ?? 0;
    if (mine >= this.limits.perKey) return { status: 'busy' };
    if (this.running >= this.limits.concurrency && this.waiting.length >= this.limits.maxWaiting)
      return { status: 'busy' };
    this.held.set(key, mine + 1);
    try {
      if (this.running >= this.limits.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.running++;
      try {
        return { status: 'done', value: await job() };
      } finally {
        // The place passes straight to the next waiting job, or is given back.
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
      }
    } finally {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    }
  }

  /** Jobs running and waiting now (for tests and logs). */
  get load() {
    return { running: this.running, waiting: this.waiting.length, keys: this.held.size };
  }
}
