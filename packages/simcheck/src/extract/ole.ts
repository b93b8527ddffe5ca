import * as CFB from 'cfb';
import { ExtractError } from './errors.ts';

/** What an OLE compound file (D0 CF 11 E0) holds, as far as extraction cares. */
export type OleKind = 'encrypted-package' | 'word' | 'other-office' | 'unknown';

const oleSignature = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function isOle(bytes: Uint8Array): boolean {
  return oleSignature.every((byte, i) => bytes[i] === byte);
}

export function readOle(bytes: Uint8Array): CFB.CFB$Container {
  try {
    return CFB.read(bytes, { type: 'buffer' });
  } catch (error) {
    throw new ExtractError('broken', undefined, { cause: error });
  }
}

export function classifyOle(container: CFB.CFB$Container): OleKind {
  const names = new Set(container.FullPaths.map((path) => path.replace(/\/$/, '').split('/').pop() ?? ''));
  // Office 2007+ encryption (standard or agile) wraps the whole zip package in an OLE file.
  if (names.has('EncryptedPackage') || names.has('EncryptionInfo')) return 'encrypted-package';
  if (names.has('WordDocument')) return 'word';
  if (names.has('Workbook') || names.has('Book') || names.has('PowerPoint Document')) return 'other-office';
  return 'unknown';
}

export function readOleStream(container: CFB.CFB$Container, name: string): Uint8Array | undefined {
  const entry = CFB.find(container, name);
  if (!entry?.content) return undefined;
  const content = entry.content as Uint8Array | number[];
  return content instanceof Uint8Array ? content : Uint8Array.from(content);
}
