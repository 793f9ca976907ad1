import './zod-without-eval';
import * as z from 'zod';

it('leaves zod nothing to evaluate: a schema made and used after it never calls Function', () => {
  const evaluate = jest.spyOn(globalThis, 'Function');
  try {
    const schema = z.object({ name: z.string(), value: z.object({ label: z.string() }) });
    expect(schema.parse({ name: 'Rocket ride', value: { label: 'One ride' } })).toEqual({
      name: 'Rocket ride',
      value: { label: 'One ride' },
    });
    expect(evaluate).not.toHaveBeenCalled();
  } finally {
    evaluate.mockRestore();
  }
});
