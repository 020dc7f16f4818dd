import { useMemo } from 'react';
import { encode } from 'uqr';

// A QR code drawn as one SVG path from the modules `uqr` computes (no markup from a library is injected).
// Medium error correction, a quiet zone of four modules as scanners expect, black on white in every theme:
// a phone camera reads dark on light.

export function QrCode({ text, label, size = 240 }: { text: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    const code = encode(text, { ecc: 'M', border: 4 });
    let drawn = '';
    code.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) drawn += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { path: drawn, modules: code.size };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${modules} ${modules}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="h-auto max-w-full bg-white"
    >
      <rect width={modules} height={modules} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
