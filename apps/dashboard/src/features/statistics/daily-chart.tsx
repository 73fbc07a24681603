import type { StatisticsAnswer } from '@tickety/api-contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { SERIES_COLOURS } from './colours';

interface DailyChartProps {
  daily: StatisticsAnswer['daily'];
  labels: { opened: string; closed: string; backlog: string };
  /** Dark mode: lighter axes and grid. */
  dark: boolean;
}


/**
 * Opened, closed and open backlog per day: uPlot (about 50 KB, lazily loaded with this module),
 * drawn on a canvas sized to its box and redrawn when the box or the data change. Decorative for
 * assistive technology: the same numbers are in the page as text.
 */
export default function DailyChart({ daily, labels, dark }: DailyChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const axis = dark ? '#a1a1aa' : '#475569';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(15,23,42,0.08)';
    const times = daily.map((d) => Date.parse(`${d.date}T12:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [times, daily.map((d) => d.opened), daily.map((d) => d.closed), daily.map((d) => d.backlog)];
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: 260,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
      axes: [
        { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid } },
        { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid }, size: 44 },
      ],
      series: [
        {},
        { label: labels.opened, stroke: SERIES_COLOURS.opened, width: 2, fill: `${SERIES_COLOURS.opened}22` },
        { label: labels.closed, stroke: SERIES_COLOURS.closed, width: 2 },
        { label: labels.backlog, stroke: SERIES_COLOURS.backlog, width: 2, dash: [6, 4] },
      ],
    };
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [daily, labels, dark]);
  return <div ref={box} aria-hidden="true" className="w-full overflow-hidden" />;
}
