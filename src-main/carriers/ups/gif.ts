import { crc32, deflateSync } from 'node:zlib';

/**
 * The little image handling UPS's GIF labels need, with no image library: the GIF's first frame
 * decoded to RGB (LZW, interlacing, transparency as white paper), an RGB image written as PNG (the
 * form pdf-lib embeds), and, for the fake UPS, a GIF encoder.
 */

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, row by row. */
  pixels: Buffer;
}

export function isGif(bytes: Buffer): boolean {
  const signature = bytes.subarray(0, 6).toString('latin1');
  return signature === 'GIF87a' || signature === 'GIF89a';
}

/** The logical screen's size, without decoding the image. */
export function gifSize(bytes: Buffer): { width: number; height: number } {
  if (!isGif(bytes)) throw new Error('Not a GIF image');
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

export function decodeGif(bytes: Buffer): RgbImage {
  const { width, height } = gifSize(bytes);
  const flags = bytes[10]!;
  let offset = 13;
  let globalTable: Buffer | null = null;
  if (flags & 0x80) {
    const size = 3 * (1 << ((flags & 7) + 1));
    globalTable = bytes.subarray(offset, offset + size);
    offset += size;
  }
  let transparent = -1;
  while (offset < bytes.length) {
    const block = bytes[offset++];
    if (block === 0x21) {
      const label = bytes[offset++];
      if (label === 0xf9 && bytes[offset] === 4 && bytes[offset + 1]! & 1) transparent = bytes[offset + 4]!;
      offset = skipSubBlocks(bytes, offset);
    } else if (block === 0x2c) {
      const left = bytes.readUInt16LE(offset);
      const top = bytes.readUInt16LE(offset + 2);
      const frameWidth = bytes.readUInt16LE(offset + 4);
      const frameHeight = bytes.readUInt16LE(offset + 6);
      const frameFlags = bytes[offset + 8]!;
      offset += 9;
      let table = globalTable;
      if (frameFlags & 0x80) {
        const size = 3 * (1 << ((frameFlags & 7) + 1));
        table = bytes.subarray(offset, offset + size);
        offset += size;
      }
      if (!table) throw new Error('GIF without a colour table');
      const minCodeSize = bytes[offset++]!;
      const data: Buffer[] = [];
      for (let length = bytes[offset++]!; length > 0; length = bytes[offset++]!) {
        data.push(bytes.subarray(offset, offset + length));
        offset += length;
      }
      const indices = lzwDecode(Buffer.concat(data), minCodeSize, frameWidth * frameHeight);
      const rows = frameFlags & 0x40 ? interlacedRows(frameHeight) : null;
      // Paper is white: whatever the frame leaves uncovered, or marks transparent, prints as nothing.
      const pixels = Buffer.alloc(width * height * 3, 0xff);
      for (let y = 0; y < frameHeight; y++) {
        const targetY = top + (rows ? rows[y]! : y);
        if (targetY >= height) continue;
        for (let x = 0; x < frameWidth && left + x < width; x++) {
          const index = indices[y * frameWidth + x]!;
          if (index === transparent) continue;
          const at = (targetY * width + left + x) * 3;
          pixels[at] = table[index * 3] ?? 0xff;
          pixels[at + 1] = table[index * 3 + 1] ?? 0xff;
          pixels[at + 2] = table[index * 3 + 2] ?? 0xff;
        }
      }
      return { width, height, pixels };
    } else {
      break;
    }
  }
  throw new Error('GIF without an image');
}

function skipSubBlocks(bytes: Buffer, offset: number): number {
  for (let length = bytes[offset++]!; length > 0 && offset < bytes.length; length = bytes[offset++]!) offset += length;
  return offset;
}

/** Row y of the stored image lands on this row of the picture (passes of 8, 8, 4, 2). */
function interlacedRows(height: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const)
    for (let y = start; y < height; y += step) rows.push(y);
  return rows;
}

function lzwDecode(data: Buffer, minCodeSize: number, pixelCount: number): Uint8Array {
  const out = new Uint8Array(pixelCount);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const firstOf = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  for (let code = 0; code < clear; code++) {
    prefix[code] = -1;
    suffix[code] = code;
    firstOf[code] = code;
  }
  let codeSize = minCodeSize + 1;
  let next = end + 1;
  let previous = -1;
  let written = 0;
  let bits = 0;
  let bitCount = 0;
  for (let at = 0; at < data.length && written < pixelCount;) {
    while (bitCount < codeSize && at < data.length) {
      bits |= data[at++]! << bitCount;
      bitCount += 8;
    }
    if (bitCount < codeSize) break;
    const code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;
    if (code === clear) {
      codeSize = minCodeSize + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code === end) break;
    let current = code;
    let depth = 0;
    if (code >= next) {
      // The code being defined right now: the previous string plus its own first byte.
      if (previous < 0) break;
      stack[depth++] = firstOf[previous]!;
      current = previous;
    }
    while (current >= 0 && depth < stack.length) {
      stack[depth++] = suffix[current]!;
      current = prefix[current]!;
    }
    while (depth > 0 && written < pixelCount) out[written++] = stack[--depth]!;
    if (previous >= 0 && next < 4096) {
      prefix[next] = previous;
      suffix[next] = firstOf[code < next ? code : previous]!;
      firstOf[next] = firstOf[previous]!;
      next++;
      if (next === 1 << codeSize && codeSize < 12) codeSize++;
    }
    previous = code;
  }
  return out;
}

/** An RGB image as a PNG file (8-bit truecolour, no filtering). */
export function encodePng(image: RgbImage): Buffer {
  const rowLength = image.width * 3;
  const raw = Buffer.alloc((rowLength + 1) * image.height);
  for (let y = 0; y < image.height; y++) image.pixels.copy(raw, y * (rowLength + 1) + 1, y * rowLength, (y + 1) * rowLength);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A GIF89a of palette indices (the fake UPS draws its labels with it). */
export function encodeGif(width: number, height: number, palette: readonly [number, number, number][], indices: Uint8Array): Buffer {
  let tableBits = 1;
  while (1 << tableBits < palette.length) tableBits++;
  const table = Buffer.alloc(3 * (1 << tableBits));
  palette.forEach((colour, index) => table.set(colour, index * 3));
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80 | (tableBits - 1);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  const minCodeSize = Math.max(2, tableBits);
  const data = lzwEncode(indices, minCodeSize);
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const part = data.subarray(at, at + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, table, descriptor, Buffer.from([minCodeSize]), ...blocks, Buffer.from([0, 0x3b])]);
}

function lzwEncode(indices: Uint8Array, minCodeSize: number): Buffer {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out: number[] = [];
  let bits = 0;
  let bitCount = 0;
  let codeSize = minCodeSize + 1;
  const emit = (code: number) => {
    bits |= code << bitCount;
    bitCount += codeSize;
    while (bitCount >= 8) {
      out.push(bits & 0xff);
      bits >>>= 8;
      bitCount -= 8;
    }
  };
  let dictionary = new Map<number, number>();
  let next = end + 1;
  emit(clear);
  let current = indices[0] ?? 0;
  for (let at = 1; at < indices.length; at++) {
    const pixel = indices[at]!;
    const key = current * 256 + pixel;
    const found = dictionary.get(key);
    if (found !== undefined) {
      current = found;
      continue;
    }
    emit(current);
    if (next < 4096) {
      dictionary.set(key, next++);
      if (next > 1 << codeSize && codeSize < 12) codeSize++;
    } else {
      emit(clear);
      dictionary = new Map();
      next = end + 1;
      codeSize = minCodeSize + 1;
    }
    current = pixel;
  }
  emit(current);
  emit(end);
  if (bitCount > 0) out.push(bits & 0xff);
  return Buffer.from(out);
}
