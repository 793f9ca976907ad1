/** Stand-ins for the page's title and text while they load, roughly their shape, so nothing jumps. */
export function TitleSkeleton() {
  return (
    <div className="p-content__title p-content__skeleton" aria-hidden="true">
      <div className="p-content__skeleton-line p-content__skeleton-line--title" />
    </div>
  );
}

const LINE_WIDTHS = [100, 96, 88, 100, 62];

export function TextSkeleton() {
  return (
    <div className="p-content__skeleton" aria-hidden="true">
      {LINE_WIDTHS.map((width, index) => (
        <div key={index} className="p-content__skeleton-line" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}
