/** The part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      /** Milliseconds. */
      latency: Histogram;
      /** Requests per second, sampled each second; `total`: how many completed. */
      requests: Histogram & { sent: number };
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      pipelining?: number;
      /** Seconds. */
      timeout?: number;
      overallRate?: number;
      ignoreCoordinatedOmission?: boolean;
      warmup?: { connections?: number; duration?: number };
    }

    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
