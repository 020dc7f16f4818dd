import type { Database } from '../db/client';

/** Either the database or an open transaction on it: helpers that take one work inside a caller's transaction. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Queryable = Database | Transaction;
