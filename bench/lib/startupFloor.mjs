/**
 * The floor of bench/startup.ts: a bare Node process that does the least a Shipdesk server must do
 * before it listens — load Fastify and better-sqlite3, open the same SQLite file as Shipdesk would
 * (WAL, synchronous = FULL, one read), and listen on 127.0.0.1 with one route. Plain JavaScript run
 * by the same `node`, so no TypeScript loader colours the figure. Prints the same "listening on"
 * line as the real server; stops on SIGTERM.
 *
 * Run: node bench/lib/startupFloor.mjs <sqlite file>
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const file = process.argv[2];
if (!file) throw new Error('usage: node bench/lib/startupFloor.mjs <sqlite file>');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const tables = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").pluck().get();
const server = Fastify({ logger: false });
server.get('/health', async () => ({ status: 'ok', tables }));
const address = await server.listen({ host: '127.0.0.1', port: 0 });
console.log(`Floor listening on ${address}`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    db.close();
    process.exit(0);
  });
});
