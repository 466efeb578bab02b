//! Row groups decoded in parallel: a few decoder threads (lanes) take the
//! row groups in turn (lane `k` decodes groups `k`, `k + lanes`, ...), each
//! cutting its group's batches into chunks (a frame per row, its rows
//! numbered from the group's first, which the metadata gives) and sending
//! them down a short channel of its own; the reader takes the groups'
//! chunks in file order, and copies nothing. A lane runs at most a few
//! chunks ahead of the reader, so memory stays at those chunks however
//! large the groups are; a lane whose reader is gone stops.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};

use super::bytes::FileBytes;
use super::{ParquetLayout, chunk_of};
use crate::chunk::{Chunk, Source};

/// A chunk of a batch's rows, or why its row group cannot be read.
pub(super) type Item = Result<Chunk, String>;

/// Chunks made ahead of the reader, per lane.
const AHEAD: usize = 1;

/// The most lanes.
const LANES: usize = 32;

/// One row group's batches, as its lane sends them.
struct Group {
    index: usize,
    batches: Receiver<Item>,
}

/// The decoder lanes of one file (started when the first batch is asked
/// for: a file opened for its schema alone reads no row group).
pub(super) struct Decoders {
    /// What the lanes start with, until they do.
    pending: Option<(FileBytes, ArrowReaderMetadata, usize, usize)>,
    /// The source the chunks are of.
    source: Arc<Source>,
    lanes: Vec<Receiver<Group>>,
    groups: usize,
    /// The next row group to take.
    next: usize,
    current: Option<Group>,
}

impl Decoders {
    /// Decoders of the `groups` row groups of `file` in batches of
    /// `rows` rows, on as many lanes as there are cores (at most `-j`, at
    /// most 32, at most one per row group; an object's, as many as hold
    /// their row groups' bytes within its budget).
    pub(super) fn start(
        file: FileBytes,
        meta: ArrowReaderMetadata,
        source: &Arc<Source>,
        groups: usize,
        rows: usize,
        cores: usize,
    ) -> Decoders {
        Decoders {
            pending: Some((file, meta, rows, cores)),
            source: Arc::clone(source),
            lanes: Vec::new(),
            groups,
            next: 0,
            current: None,
        }
    }

    /// Starts the lanes.
    fn spawn(&mut self, file: FileBytes, meta: ArrowReaderMetadata, rows: usize, cores: usize) {
        let groups = self.groups;
        let lanes = file
            .lanes(meta.metadata(), cores)
            .min(LANES)
            .min(groups)
            .max(1);
        let mut receivers = Vec::with_capacity(lanes);
        for lane in 0..lanes {
            let (tx, rx) = sync_channel(1);
            receivers.push(rx);
            let (file, meta, source) = (file.clone(), meta.clone(), Arc::clone(&self.source));
            let spawned = std::thread::Builder::new()
                .name(format!("urlsift-parquet-{lane}"))
                .spawn(move || decode_lane(file, meta, &source, lane, lanes, rows, tx));
            if spawned.is_err() {
                // (No thread: its groups are reported as unreadable below.)
                receivers.pop();
                receivers.push(sync_channel(1).1);
            }
        }
        self.lanes = receivers;
    }

    /// The next chunk in file order, with its row group; `Ok(None)` at the
    /// end of a row group (then the next call goes on with the next
    /// group), `None` once every group was taken.
    pub(super) fn next(&mut self) -> Option<(usize, Option<Item>)> {
        if let Some((file, meta, rows, cores)) = self.pending.take() {
            self.spawn(file, meta, rows, cores);
        }
        let group = match &self.current {
            Some(g) => g,
            None => {
                if self.next >= self.groups {
                    return None;
                }
                let index = self.next;
                self.next += 1;
                match self.lanes[index % self.lanes.len()].recv() {
                    Ok(group) => self.current.insert(group),
                    Err(_) => {
                        return Some((index, Some(Err("its decoder thread could not run".into()))));
                    }
                }
            }
        };
        let index = group.index;
        match group.batches.recv() {
            Ok(item) => Some((index, Some(item))),
            Err(_) => {
                self.current = None;
                Some((index, None))
            }
        }
    }
}

/// A lane: decodes its row groups of `source` in turn, each cut into
/// chunks down a channel of its own.
fn decode_lane(
    file: FileBytes,
    meta: ArrowReaderMetadata,
    source: &Arc<Source>,
    lane: usize,
    lanes: usize,
    rows: usize,
    control: SyncSender<Group>,
) {
    let layout = ParquetLayout::of(&source.format).expect("a Parquet source");
    let groups = layout.row_groups.len();
    for index in (lane..groups).step_by(lanes) {
        // The group's first row, as line numbers count (from 1).
        let mut line = layout.row_groups[..index].iter().sum::<u64>() + 1;
        let (tx, batches) = sync_channel(AHEAD);
        if control.send(Group { index, batches }).is_err() {
            return;
        }
        let group = match file.for_group(meta.metadata(), index) {
            Ok(group) => group,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        let built = ParquetRecordBatchReaderBuilder::new_with_metadata(group, meta.clone())
            .with_row_groups(vec![index])
            .with_batch_size(rows)
            .build();
        let reader = match built {
            Ok(reader) => reader,
            Err(e) => {
                let _ = tx.send(Err(format!("cannot be read: {e}")));
                return;
            }
        };
        for batch in reader {
            let item = batch
                .map(|batch| {
                    let n = batch.num_rows() as u64;
                    let chunk = chunk_of(source, batch, line, index);
                    line += n;
                    chunk
                })
                .map_err(|e| format!("cannot be read: {e}"));
            let failed = item.is_err();
            if tx.send(item).is_err() || failed {
                return;
            }
        }
    }
}
