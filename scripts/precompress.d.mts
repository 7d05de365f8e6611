/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` where they are smaller. */
export declare const precompress: (dir: string) => string[];
