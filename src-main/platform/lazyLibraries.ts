/**
 * Libraries that only some requests need, loaded on their first use instead of when the process
 * starts (issue 23: the headless server listened after 3–6 s, most of it loading modules). PDF and
 * label rendering (pdf-lib, fontkit, bwip-js) and SMTP (nodemailer) were about 250 of the 780
 * modules loaded before "listening", and no request a station makes first needs them.
 *
 * Loaded with a synchronous require, so the functions that use them keep their signatures (a
 * barcode is encoded in synchronous layout code). Types come from `import type`, which loads
 * nothing. pdf-lib and fontkit have no ESM build, so `import` and `require` give the same module;
 * bwip-js and nodemailer are used here only, as plain functions.
 */
import { createRequire } from 'node:module';
import type * as PdfLib from 'pdf-lib';
import type * as Fontkit from '@pdf-lib/fontkit';
import type BwipJs from 'bwip-js/node';
import type * as Nodemailer from 'nodemailer';

const requireLibrary = createRequire(import.meta.url);

/** `load` runs on the first call; later calls answer what it answered. */
function onFirstUse<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

export const pdfLib = onFirstUse(() => requireLibrary('pdf-lib') as typeof PdfLib);
export const fontkitLib = onFirstUse(() => requireLibrary('@pdf-lib/fontkit') as typeof Fontkit);
export const bwipJs = onFirstUse(() => requireLibrary('bwip-js/node') as typeof BwipJs);
export const nodemailer = onFirstUse(() => requireLibrary('nodemailer') as typeof Nodemailer);
