/** The published form of one content page, as written by the build and read by the pages. */
export interface ContentPayload {
  /** Plain text, taken from the page's `# heading`. */
  title: string;
  /** Sanitised HTML of everything after the heading. */
  html: string;
}

export function isContentPayload(value: unknown): value is ContentPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ContentPayload>;
  return typeof candidate.title === 'string' && candidate.title !== '' && typeof candidate.html === 'string';
}
