import { act, renderHook } from '@testing-library/react';
import { COPIED_FOR_MS, useCopyToClipboard } from './use-copy-to-clipboard';

function stubClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('useCopyToClipboard', () => {
  it('says "copied", then nothing again after a while, so a second copy is announced again', async () => {
    jest.useFakeTimers();
    const writeText = jest.fn().mockResolvedValue(undefined);
    stubClipboard({ writeText });
    const { result } = renderHook(() => useCopyToClipboard());

    await act(() => result.current.copy('7KQ4'));
    expect(writeText).toHaveBeenCalledWith('7KQ4');
    expect(result.current.status).toBe('copied');

    act(() => jest.advanceTimersByTime(COPIED_FOR_MS));
    expect(result.current.status).toBe('idle');
  });

  it('keeps "copied" for as long as the caller asks', async () => {
    jest.useFakeTimers();
    stubClipboard({ writeText: jest.fn().mockResolvedValue(undefined) });
    const { result } = renderHook(() => useCopyToClipboard(5_000));

    await act(() => result.current.copy('x'));
    act(() => jest.advanceTimersByTime(4_999));
    expect(result.current.status).toBe('copied');
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.status).toBe('idle');
  });

  it.each([
    [
      'the clipboard refuses',
      { writeText: jest.fn().mockRejectedValue(new DOMException('Denied', 'NotAllowedError')) },
    ],
    ['there is no clipboard (an insecure origin)', undefined],
  ])('says "failed" when %s, until cleared', async (_case, clipboard) => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubClipboard(clipboard);
    const { result } = renderHook(() => useCopyToClipboard());

    await act(() => result.current.copy('x'));
    expect(result.current.status).toBe('failed');

    act(() => result.current.clear());
    expect(result.current.status).toBe('idle');
  });
});
