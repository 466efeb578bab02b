//! The AWS tools' shared files: a profile's keys from
//! `~/.aws/credentials` and its region from `~/.aws/config`, for an
//! `s3://` store when the environment names no key.

use std::io;
use std::path::PathBuf;

use object_store::aws::AmazonS3ConfigKey as Key;

/// The settings of the profile `AWS_PROFILE` names (or `default`) from
/// the credentials file (`AWS_SHARED_CREDENTIALS_FILE`, or
/// `~/.aws/credentials`) and the config file (`AWS_CONFIG_FILE`, or
/// `~/.aws/config`): its keys, and its region unless the environment sets
/// one. Nothing when the environment holds a key, or when no file is
/// there and no profile was asked for; a profile asked for by name and
/// found in neither file is an error.
pub(super) fn aws_settings() -> io::Result<Vec<(Key, String)>> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if env("AWS_ACCESS_KEY_ID").is_some() {
        return Ok(Vec::new());
    }
    let asked = env("AWS_PROFILE");
    let profile = asked.clone().unwrap_or_else(|| "default".to_string());
    let home = env("HOME").map(PathBuf::from);
    let file = |var: &str, name: &str| {
        env(var)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(name)))
    };
    let read = |path: Option<PathBuf>| path.and_then(|p| std::fs::read_to_string(p).ok());
    let credentials = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials"));
    let config = read(file("AWS_CONFIG_FILE", "config"));
    let keys = credentials
        .as_deref()
        .and_then(|text| section(text, &profile));
    // The config file names a profile `[profile NAME]`, its default `[default]`.
    let config_name = match profile.as_str() {
        "default" => "default".to_string(),
        name => format!("profile {name}"),
    };
    let settings = config
        .as_deref()
        .and_then(|text| section(text, &config_name));
    if keys.is_none() && settings.is_none() {
        return match asked {
            Some(name) => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "AWS_PROFILE names the profile {name:?}, which neither ~/.aws/credentials \
                     nor ~/.aws/config holds"
                ),
            )),
            None => Ok(Vec::new()),
        };
    }
    let mut out = Vec::new();
    let all = keys.iter().chain(settings.iter()).flatten();
    for (name, value) in all {
        let key = match name.as_str() {
            "aws_access_key_id" => Key::AccessKeyId,
            "aws_secret_access_key" => Key::SecretAccessKey,
            "aws_session_token" => Key::Token,
            "region" if env("AWS_REGION").is_none() && env("AWS_DEFAULT_REGION").is_none() => {
                Key::Region
            }
            _ => continue,
        };
        out.push((key, value.clone()));
    }
    Ok(out)
}

/// The `key = value` lines of section `[name]` of an INI text (the AWS
/// files' form: `#` and `;` start comments), or `None` without it.
fn section(text: &str, name: &str) -> Option<Vec<(String, String)>> {
    let mut found = None;
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = header.trim() == name;
            if inside {
                found.get_or_insert_with(Vec::new);
            }
            continue;
        }
        if inside && let Some((key, value)) = line.split_once('=') {
            let pairs = found.get_or_insert_with(Vec::new);
            pairs.push((key.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::section;

    #[test]
    fn a_profile_is_its_section() {
        let text = "# keys\n[default]\naws_access_key_id = A\n\n[crawl]\n\
                    aws_access_key_id=B\n  AWS_Secret_Access_Key = s = t \n; done\n[other]\nx=1\n";
        let pairs = |v: Vec<(&str, &str)>| {
            v.into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            section(text, "default"),
            Some(pairs(vec![("aws_access_key_id", "A")]))
        );
        assert_eq!(
            section(text, "crawl"),
            Some(pairs(vec![
                ("aws_access_key_id", "B"),
                ("aws_secret_access_key", "s = t"),
            ]))
        );
        assert_eq!(section(text, "nope"), None);
        assert_eq!(section("[empty]\n", "empty"), Some(Vec::new()));
    }
}
