/** The server counts plays, not this page: until it has answered one, the count is unknown. */
export function PlaysLeft({ count }: { count: number | undefined }) {
  const text =
    count === undefined
      ? 'A few plays each day'
      : count === 0
        ? 'No plays left today'
        : `${count} ${count === 1 ? 'play' : 'plays'} left today`;
  return <p className="p-game__plays">{text}</p>;
}
