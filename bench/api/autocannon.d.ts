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

    interface Request {
      method?: 'GET' | 'POST';
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before each request is sent; returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    interface Options {
      url: string;
      /** Sent in turn by every connection, instead of `method`, `headers` and `body`. */
      requests?: Request[];
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
