// Slack-style IDs and the file object returned by files.upload and files.completeUploadExternal.
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** e.g. F0A1B2C3D4E: Slack IDs are a type letter and upper-case letters and digits. */
export function newId(prefix: string): string {
  const bytes = randomBytes(10);
  let id = prefix;
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

export const TEAM = { id: 'T0REFERENCE', name: 'Trayshare Reference' } as const;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.zip': 'application/zip',
};

export function guessMimeType(name: string, declared?: string): string {
  if (declared && declared !== 'application/octet-stream') return declared;
  return MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export interface FileObject {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  size: number;
  created: number;
  user: string;
  channels: string[];
  permalink: string;
  url_private: string;
}

export function fileObject(
  baseUrl: string,
  f: Omit<FileObject, 'permalink' | 'url_private'>,
): FileObject {
  const name = encodeURIComponent(f.name);
  return {
    ...f,
    permalink: `${baseUrl}/files/${f.user}/${f.id}/${name}`,
    url_private: `${baseUrl}/files-pri/${TEAM.id}-${f.id}/${name}`,
  };
}
