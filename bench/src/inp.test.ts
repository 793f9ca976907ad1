import { interactionLatencies, interactionToNextPaint } from './inp';

describe('interactionToNextPaint', () => {
  it("takes an interaction's longest entry, and the slowest interaction", () => {
    const entries = [
      { name: 'pointerdown', interactionId: 7, duration: 24 },
      { name: 'pointerup', interactionId: 7, duration: 40 },
      { name: 'click', interactionId: 7, duration: 112 },
      { name: 'keydown', interactionId: 9, duration: 64 },
    ];
    expect(interactionLatencies(entries)).toEqual(
      new Map([
        [7, 112],
        [9, 64],
      ]),
    );
    expect(interactionToNextPaint(entries)).toBe(112);
  });

  it('leaves out entries of no interaction, and has no number without one', () => {
    const entries = [{ name: 'mouseover', interactionId: 0, duration: 300 }];
    expect(interactionToNextPaint(entries)).toBeNaN();
    expect(interactionToNextPaint([])).toBeNaN();
  });
});
