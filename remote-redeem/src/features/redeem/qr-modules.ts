import qrcode from 'qrcode-generator';

const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

/** Level M: still reads with 15% of it scuffed or folded. */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  // Alphanumeric needs fewer modules: a smaller code reads better at the same size.
  qr.addData(text, ALPHANUMERIC.test(text) ? 'Alphanumeric' : 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => qr.isDark(row, col)));
}

export function qrPath(modules: boolean[][]): string {
  const parts: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (row[x]) x += 1;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  });
  return parts.join('');
}
