// autocannon ships no types and @types/autocannon is not a dependency: the part the bench uses.
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: { path?: string; setupRequest?: (request: any, context: any) => any }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
