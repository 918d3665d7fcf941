import { randomBytes } from 'node:crypto';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrintError, type PrintDriver, type PrintRequest } from './driver';

/** Letters, digits, dot, dash and underscore: safe in any file system and in a watcher's pattern. */
export function safeFileStem(name: string): string {
  return name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 200);
}

/**
 * The file one copy of one attempt is written to: `<reference>-<documentId>-<printJobId>-<attempt>`,
 * `…-copy2`, `…-copy3` for extra copies. A reprint (another job, or a retry of the same one) is a new
 * name, so a watcher that has already taken the first file sees the reprint too, and nothing it has
 * not read yet is overwritten.
 */
export function hotFolderFileName(request: Pick<PrintRequest, 'jobName' | 'printJobId' | 'attempt' | 'format'>, copy: number): string {
  // A long reference is cut, never the document id after its last dash, nor the job and attempt that
  // keep the name unique.
  const dash = request.jobName.lastIndexOf('-');
  const [reference, documentId] =
    dash > 0 ? [safeFileStem(request.jobName.slice(0, dash)), `-${safeFileStem(request.jobName.slice(dash + 1))}`] : [safeFileStem(request.jobName), ''];
  const stem = `${reference.slice(0, Math.max(0, 160 - documentId.length))}${documentId}-${safeFileStem(request.printJobId)}-${request.attempt}`;
  return `${stem}${copy > 1 ? `-copy${copy}` : ''}.${request.format}`;
}

/**
 * Writes the document into a folder another program watches (hot-folder integrations), one file per
 * copy of each attempt (hotFolderFileName). Each file is written under a hidden temporary name and
 * renamed, so a watcher never picks up half a label.
 */
export function fileDriver(): PrintDriver {
  return {
    async print(content, request) {
      const folder = request.target;
      // A missing folder (an unmounted share) is an error, not something to create behind the user's back.
      const info = await stat(folder).catch(() => null);
      if (!info) throw new PrintError('not_found', `Folder '${folder}' does not exist on this computer; create it or change the printer's folder`);
      if (!info.isDirectory()) throw new PrintError('not_found', `'${folder}' is a file, not a folder; change the printer's folder`);
      for (let copy = 1; copy <= request.copies; copy++) {
        const name = hotFolderFileName(request, copy);
        const temporary = join(folder, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
        try {
          await writeFile(temporary, content, { flag: 'wx' });
          await rename(temporary, join(folder, name));
        } catch (error) {
          await rm(temporary, { force: true });
          const code = (error as NodeJS.ErrnoException).code;
          const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOSPC' ? 'the disk is full' : (error as Error).message;
          throw new PrintError('failed', `Could not write ${name} into '${folder}': ${why}`);
        }
      }
    },
  };
}
