/** One content page: its payload's title and sanitised HTML, fetched from this remote. */
import { useId, useMemo, type ReactNode } from 'react';
import { usePayload } from '../api/get-payload';
import type { ContentPageName } from '../content-pages';
import { InlineError } from 'shared/browser/feedback/inline-error';
import { formatDate } from 'shared/format';
import { useDocumentTitle } from 'shared/browser/use-document-title';
import { useInternalLinkClick } from '../hooks/use-internal-link-click';
import { sanitizePayloadHtml } from '../sanitize-payload-html';
import { TextSkeleton, TitleSkeleton } from './content-skeleton';
import './content-page.css';

interface ContentPageProps {
  page: ContentPageName;
  /** Shown under the title in every state, so a call to action never waits for the text. */
  actions?: ReactNode;
  /** When this page was last published (ms since the epoch): "Updated {date}" after its text. */
  updatedAt?: number;
}

export function ContentPage({ page, actions, updatedAt }: ContentPageProps) {
  const { state, retry } = usePayload(page);
  const onClick = useInternalLinkClick();
  const titleId = useId();
  useDocumentTitle(state.status === 'ready' ? state.payload.title : undefined);
  const html = state.status === 'ready' ? state.payload.html : undefined;
  const body = useMemo(() => (html === undefined ? undefined : sanitizePayloadHtml(html)), [html]);

  // Title, actions, text: the same order in every state, so the actions never move.
  return (
    <article
      className="p-content"
      aria-busy={state.status === 'loading'}
      aria-labelledby={state.status === 'ready' ? titleId : undefined}
    >
      {state.status === 'ready' && (
        <h1 id={titleId} className="p-content__title">
          {state.payload.title}
        </h1>
      )}
      {state.status === 'loading' && (
        <>
          <span className="p-visually-hidden">Loading…</span>
          <TitleSkeleton />
        </>
      )}
      {state.status === 'error' && (
        <InlineError asHeading title="This page didn’t load" message={state.message} onRetry={retry} />
      )}
      {actions && <div className="p-content__actions">{actions}</div>}
      {state.status === 'loading' && <TextSkeleton />}
      {body !== undefined && (
        // Sanitised where it enters the page, against the allow-list the build sanitised it with.
        <div className="p-content__body" onClick={onClick} dangerouslySetInnerHTML={{ __html: body }} />
      )}
      {state.status === 'ready' && updatedAt !== undefined && <UpdatedAt timestamp={updatedAt} />}
    </article>
  );
}

function UpdatedAt({ timestamp }: { timestamp: number }) {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  return (
    <p className="p-content__updated">
      Updated <time dateTime={iso}>{formatDate(iso)}</time>
    </p>
  );
}
