import type { ReactNode } from 'react'
import { cardClass } from './card.tsx'
import { cx } from './cx.ts'
import { ScrollTable } from './scroll-table.tsx'

export type Column<Row> = { header: string; cell: (row: Row) => ReactNode; className?: string }

/**
 * The owner's lists: a captioned table on a card, scrolling sideways on a small screen (in a region the keyboard
 * reaches), or a plain sentence when there is nothing to list.
 */
export function DataTable<Row>({
	caption,
	columns,
	rows,
	rowKey,
	empty,
	visibleCaption = false,
}: {
	caption: string
	columns: ReadonlyArray<Column<Row>>
	rows: readonly Row[]
	rowKey: (row: Row) => string | number
	empty: ReactNode
	visibleCaption?: boolean
}) {
	if (rows.length === 0) return <p className={cardClass('p-6 text-gray-800')}>{empty}</p>
	return (
		<ScrollTable
			caption={caption}
			captionClassName={visibleCaption ? 'p-3 text-left font-bold text-gray-900' : 'sr-only'}
			className={cardClass()}
			tableClassName="w-full text-left text-sm"
		>
			<thead className="border-b border-gray-300 bg-gray-50">
				<tr>
					{columns.map((column) => (
						<th key={column.header} scope="col" className="p-3">
							{column.header}
						</th>
					))}
				</tr>
			</thead>
			<tbody>
				{rows.map((row) => (
					<tr key={rowKey(row)} className="border-b border-gray-200">
						{columns.map((column) => (
							<td key={column.header} className={cx('p-3', column.className)}>
								{column.cell(row)}
							</td>
						))}
					</tr>
				))}
			</tbody>
		</ScrollTable>
	)
}
