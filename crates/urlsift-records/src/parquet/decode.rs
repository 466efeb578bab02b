//! Row groups decoded in parallel: a few decoder threads (lanes) take the
//! row groups in turn (lane `k` decodes groups `k`, `k + lanes`, ...), each
//! sending its group's batches down a short channel of its own; the reader
//! takes the groups' batches in file order. A lane runs at most a few
//! batches ahead of the reader, so memory stays at those batches however
//! large the groups are; a lane whose reader is gone stops.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};

use super::bytes::FileBytes;

/// A batch, or why its row group cannot be read.
pub(super) type Item = Result<RecordBatch, String>;

/// Batches decoded ahead of the reader, per lane.
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
        groups: usize,
        rows: usize,
        cores: usize,
    ) -> Decoders {
        Decoders {
            pending: Some((file, meta, rows, cores)),
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
            let (file, meta) = (file.clone(), meta.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("urlsift-parquet-{lane}"))
                .spawn(move || decode_lane(file, meta, lane, lanes, groups, rows, tx));
            if spawned.is_err() {
                // (No thread: its groups are reported as unreadable below.)
                receivers.pop();
                receivers.push(sync_channel(1).1);
            }
        }
        self.lanes = receivers;
    }

    /// The next batch in file order, with its row group; `Ok(None)` at the
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

/// A lane: decodes its row groups in turn, each down a channel of its own.
fn decode_lane(
    file: FileBytes,
    meta: ArrowReaderMetadata,
    lane: usize,
    lanes: usize,
    groups: usize,
    rows: usize,
    control: SyncSender<Group>,
) {
    for index in (lane..groups).step_by(lanes) {
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
            let failed = batch.is_err();
            if tx
                .send(batch.map_err(|e| format!("cannot be read: {e}")))
                .is_err()
                || failed
            {
                return;
            }
        }
    }
}
