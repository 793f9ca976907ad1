export function GameScreen() {
  return (
    <section aria-labelledby="game-title">
      <h1 id="game-title">Pick a box</h1>
      <p>Three wrapped boxes, one pick. The game opens here soon.</p>
    </section>
  );
}
