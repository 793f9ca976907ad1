/** What the deploy commands share in reading their command lines. */

/**
 * What node's `parseArgs` refused, in a command's words, naming the option as it was typed:
 * "unknown option --force", "--keep-builds needs a value", or parseArgs's own message.
 */
export function describeArgsError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const option = /'(-[^' ,<]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  // "argument missing" (an option last), "ambiguous" (followed by another option).
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option && /missing|ambiguous/.test(message))
    return `${option} needs a value`;
  return message;
}
