import { useMemo } from 'react';
import { qrModules, qrPath } from '../qr-modules';

/** The light margin around a QR code that scanners need: four modules. */
const QUIET_ZONE = 4;

/**
 * The voucher code as a QR code, to be scanned at a till. Dark on white in either theme:
 * scanners need the contrast, and the quiet zone is part of the drawing.
 */
export function VoucherQr({ code }: { code: string }) {
  const modules = useMemo(() => qrModules(code), [code]);
  const size = modules.length + 2 * QUIET_ZONE;
  return (
    <svg
      className="p-redeem__qr"
      role="img"
      aria-label="QR code of your voucher code"
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={qrPath(modules)} transform={`translate(${QUIET_ZONE} ${QUIET_ZONE})`} fill="#000" />
    </svg>
  );
}
