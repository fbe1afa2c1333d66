// Log retention on the database mode's own store (files with SQLite, chunks with PostgreSQL).
import { retentionCases } from './retention-cases.ts';

retentionCases(async () => ({ env: {}, stop: async () => {} }));
