/** Server-Sent Events: the `id` and `data` of each event, from the text as it arrives. */
/** A line's end: a lone `\r` at the end of the buffer may be the start of `\r\n`. */
const LINE_END = /\r\n|\n|\r(?!$)/;

export class EventParser {
  private buffer = '';
  private id: string | undefined;
  private data: string[] = [];
  retryMs: number | undefined;

  /** The events completed by this chunk. */
  push(chunk: string): { id: string | undefined; data: string }[] {
    const events: { id: string | undefined; data: string }[] = [];
    this.buffer += chunk;
    for (let match = LINE_END.exec(this.buffer); match !== null; match = LINE_END.exec(this.buffer)) {
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.data.length > 0) events.push({ id: this.id, data: this.data.join('\n') });
        this.data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'data') this.data.push(value);
        else if (name === 'id') this.id = value;
        else if (name === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
      }
    }
    return events;
  }
}
