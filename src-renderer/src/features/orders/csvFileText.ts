import { ApiError } from '../../../../src-shared/errors';
import { csvNotUtf8Message, decodeUtf8 } from '../../../../src-shared/utf8Text';

/**
 * The chosen CSV file as text, or the reason it cannot be imported. `File.text()` decodes with
 * replacement: a Windows-1252 file (Excel's plain "CSV") became text with "\ufffd" where its "ø"
 * were, which was sent as if the file had said so. The file is refused here instead, in the words the
 * server uses for the same file, so the packer is told to save it as "CSV UTF-8".
 */
export async function csvFileText(file: Blob): Promise<string> {
  const decoded = decodeUtf8(new Uint8Array(await file.arrayBuffer()));
  if (decoded.ok) return decoded.text;
  const message = csvNotUtf8Message(decoded.line);
  throw new ApiError('VALIDATION_FAILED', message, { details: [{ path: 'body', message }] });
}
