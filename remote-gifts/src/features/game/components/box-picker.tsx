import type { Ref } from 'react';
import { GiftBox, type GiftBoxState } from '../../../components/gift-box';

export const BOXES = [1, 2, 3] as const;

interface BoxPickerProps {
  /** The box this play is about, once one is picked. */
  picked: number | undefined;
  pickedState: GiftBoxState;
  pickedContents: 'prize' | 'empty';
  disabled: boolean;
  onPick: (box: number) => void;
  /** The picked box has finished opening. */
  onOpened: () => void;
  firstBoxRef?: Ref<HTMLButtonElement>;
}

/** Three real buttons, so a pick works with a keyboard, a pointer or a screen reader alike. */
export function BoxPicker({
  picked,
  pickedState,
  pickedContents,
  disabled,
  onPick,
  onOpened,
  firstBoxRef,
}: BoxPickerProps) {
  return (
    <ul className="p-game__boxes" aria-label="Boxes">
      {BOXES.map((box) => {
        const isPicked = box === picked;
        return (
          <li key={box}>
            <button
              ref={box === 1 ? firstBoxRef : undefined}
              type="button"
              className="p-game__box"
              data-picked={isPicked || undefined}
              disabled={disabled}
              onClick={() => onPick(box)}
              // Only the lid's animation can end while the box opens (see gift-box.css).
              onAnimationEnd={isPicked && pickedState === 'opening' ? onOpened : undefined}
            >
              <GiftBox
                state={isPicked ? pickedState : 'closed'}
                tone={box}
                contents={isPicked ? pickedContents : 'empty'}
              />
              <span className="p-game__box-label">Box {box}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
