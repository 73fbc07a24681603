import LayoutPanelTop from 'lucide-react/icons/layout-panel-top';
import { ServerPageFrame } from './server-frame';

/** Panel Menu (/dashboard/:server/configs). */
export default function ServerConfigs() {
  return (
    <ServerPageFrame
      info={{
        name: 'Panel Menu',
        icon: LayoutPanelTop,
        description: (server) => `Build the ticket panels members of ${server} press to open a ticket, and decide who handles those tickets.`,
        feature: 'The panel editor',
        upcoming: [
          'Your panels and multi-panels, created, edited and removed here.',
          'The panel message (title, description, colour, image, footer) and its button (label, emoji, style), with a live preview as Discord shows it.',
          'Ticket category, channel naming ({count}, {username}, {userid}), support and ping roles, welcome message and a form of up to 5 questions.',
          'Open-ticket limits, claiming, two-step close, the transcript channel and support hours.',
          'Sending a panel to a channel, and updating a sent panel in place.',
        ],
      }}
    />
  );
}
