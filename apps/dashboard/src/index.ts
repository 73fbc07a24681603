// Standalone development harness only (the shell never loads this entry): async boundary first.
import('./dev/bootstrap');
