import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAppRequest, isAppUrl, trustedPageCheck } from './protocol';

// The renderer folder sits inside a parent holding a secret, so a traversal that works would find it.
let parent: string;
let rendererDir: string;

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'shipdesk-protocol-'));
  rendererDir = join(parent, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Shipdesk</title>');
  writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(parent, 'secret.txt'), 'do not serve');
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handleAppRequest(rendererDir, { method, url });
const text = (body: Uint8Array | null) => new TextDecoder().decode(body ?? new Uint8Array());

describe('app:// protocol', () => {
  it('serves index.html for / and assets with their content type', () => {
    const index = get('app://shipdesk/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(text(index.body)).toContain('<title>Shipdesk</title>');
    expect(text(get('app://shipdesk/index.html').body)).toContain('Shipdesk');
    const script = get('app://shipdesk/assets/index-abc.js?v=1');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers HEAD without a body', () => {
    const head = get('app://shipdesk/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it.each([
    'app://shipdesk/../secret.txt',
    'app://shipdesk/assets/../../secret.txt',
    'app://shipdesk/%2e%2e/secret.txt',
    'app://shipdesk/..%2fsecret.txt',
    'app://shipdesk/..%2Fsecret.txt',
    'app://shipdesk/assets%2f..%2f..%2fsecret.txt',
    'app://shipdesk/..%5csecret.txt',
    'app://shipdesk/%252e%252e/secret.txt',
    'app://shipdesk/index.html%00.js',
    'app://shipdesk/%E0%A4%A',
  ])('refuses traversal %s', (url) => {
    const answer = get(url);
    expect(answer.status).toBe(404);
    expect(text(answer.body)).not.toContain('do not serve');
  });

  it('404s for missing files, folders and other hosts', () => {
    expect(get('app://shipdesk/nope.js').status).toBe(404);
    expect(get('app://shipdesk/assets').status).toBe(404);
    expect(get('app://elsewhere/index.html').status).toBe(404);
    expect(get('file:///etc/passwd').status).toBe(404);
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])('refuses %s', (method) => {
    const answer = get('app://shipdesk/index.html', method);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });
});

describe('trusted pages', () => {
  it('knows the app origin and nothing else in production', () => {
    expect(isAppUrl('app://shipdesk/index.html')).toBe(true);
    expect(isAppUrl('app://shipdesk')).toBe(true);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://shipdesk/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
    expect(isAppUrl(undefined)).toBe(false);
    const trusted = trustedPageCheck(undefined);
    expect(trusted('app://shipdesk/')).toBe(true);
    expect(trusted('http://localhost:5173/')).toBe(false);
  });

  it('adds the dev server origin only when one is given', () => {
    const trusted = trustedPageCheck('http://localhost:5173');
    expect(trusted('http://localhost:5173/index.html')).toBe(true);
    expect(trusted('http://localhost:5174/')).toBe(false);
    expect(trusted('http://localhost:5173.evil.example/')).toBe(false);
    expect(trusted('app://shipdesk/')).toBe(true);
  });
});
