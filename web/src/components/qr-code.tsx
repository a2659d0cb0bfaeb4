import { t } from '../i18n.ts';

interface QrPath {
  d: string;
  fill: string | undefined;
  stroke: string | undefined;
}

const NUMBERS = /^[\d.\s-]+$/;
const PATH_DATA = /^[MmHhVvLlZz\d.\s,-]+$/;
const COLOUR = /^(#[0-9a-fA-F]{3,8}|none)$/;

/**
 * Reads the server's QR markup as data, never as markup: only the viewBox and the paths' geometry and
 * colours are kept, each checked against a narrow pattern, and drawn by Preact. Nothing else in the SVG
 * (scripts, links, styles, event attributes) can reach the page, and the strict CSP needs no data: URL.
 */
export function parseQrSvg(markup: string): { viewBox: string; paths: QrPath[] } | null {
  const document = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const root = document.documentElement;
  if (root.nodeName !== 'svg' || document.getElementsByTagName('parsererror').length > 0) return null;
  const viewBox = root.getAttribute('viewBox') ?? '';
  if (!NUMBERS.test(viewBox)) return null;
  const paths: QrPath[] = [];
  for (const element of Array.from(root.getElementsByTagName('path'))) {
    const d = element.getAttribute('d') ?? '';
    const fill = element.getAttribute('fill') ?? undefined;
    const stroke = element.getAttribute('stroke') ?? undefined;
    if (!PATH_DATA.test(d) || (fill !== undefined && !COLOUR.test(fill)) || (stroke !== undefined && !COLOUR.test(stroke))) return null;
    paths.push({ d, fill, stroke });
  }
  return paths.length > 0 ? { viewBox, paths } : null;
}

/** The QR code the server drew for an authenticator app; null when the markup is not the shape we expect. */
export function QrCode({ svg, label = t('console.qrCode.label') }: { svg: string; label?: string }) {
  const parsed = parseQrSvg(svg);
  if (!parsed) return null;
  return (
    <svg class="qr-code" viewBox={parsed.viewBox} role="img" aria-label={label} shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg">
      {parsed.paths.map((path, index) => (
        <path key={index} d={path.d} fill={path.fill} stroke={path.stroke} />
      ))}
    </svg>
  );
}
