/**
 * Calls one HTTP request to /trpc may carry. The server refuses bigger batches (400) before running any call,
 * so one request cannot cost hundreds of password hashes; the client's batch link splits at the same size.
 */
export const TRPC_MAX_BATCH_SIZE = 10
