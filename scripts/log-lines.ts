/** For concurrently: each part's output in whole lines, so another part's cannot cut into one. */
import { StringDecoder } from 'node:string_decoder';
import { type Command, type FlowController, type Logger } from 'concurrently';

/** A process that never ends its lines still shows. */
const MAX_LINE = 1 << 20;

export class LogLines implements FlowController {
  constructor(private readonly logger: Logger) {}

  handle(commands: Command[]): { commands: Command[] } {
    for (const command of commands) {
      for (const output of [command.stdout, command.stderr]) {
        const decoder = new StringDecoder('utf8');
        let pending = '';
        const print = (text: string) => {
          if (text) this.logger.logCommandText(text, command);
        };
        output.subscribe((chunk) => {
          pending += decoder.write(chunk);
          const end = pending.length > MAX_LINE ? pending.length : pending.lastIndexOf('\n') + 1;
          print(pending.slice(0, end));
          pending = pending.slice(end);
        });
        // Before the part's exit line (LogExit comes after this controller).
        command.close.subscribe(() => {
          const rest = pending + decoder.end();
          pending = '';
          if (rest) print(`${rest}\n`);
        });
      }
    }
    return { commands };
  }
}
